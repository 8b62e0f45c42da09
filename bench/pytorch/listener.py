"""The pyramidal BiLSTM listener of models/pyramid_bilstm.go, in PyTorch.

Import only after common.init_torch (it imports torch).

    layer 0:      h0 = BiLSTM(x)                       (B, T, 2H)
    layer j >= 1: hj = BiLSTM(Pyramid(h(j-1)))         (B, ceil(T/2^j), 2H)
    Pyramid:      (B, t, 2H) -> (B, ceil(t/2), 4H), frames 2t and 2t+1
                  concatenated (an odd last frame paired with zeros),
                  lengths -> ceil(lengths/2)

Each BiLSTM is nn.LSTM(bidirectional, batch_first). Ours has one bias per
direction, nn.LSTM two: bias_hh is frozen at zero (requires_grad False), so
the trainable parameters are ours one for one (gate order and weight layout
differ: see parity.py for the mapping).

With packed=False the layers run on the padded tensor, PyTorch's fast path
(valid when every sequence is full length); with packed=True every layer
runs pack_padded_sequence, which masks padding as ours does.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.rnn as rnn

import common


def bilstm(In, H):
    """nn.LSTM initialized like models.NewLSTM, bias_hh frozen at zero."""
    m = nn.LSTM(In, H, batch_first=True, bidirectional=True)
    for sfx in ("_l0", "_l0_reverse"):
        common.glorot_(getattr(m, "weight_ih" + sfx), In, 4 * H)
        common.orthogonal_blocks_(getattr(m, "weight_hh" + sfx), H, 4 * H, transposed=True)
        b_ih, b_hh = getattr(m, "bias_ih" + sfx), getattr(m, "bias_hh" + sfx)
        with torch.no_grad():
            b_ih.zero_()
            b_ih[H : 2 * H] = 1  # forget gate: block 1 in [i f g o] too
            b_hh.zero_()
        b_hh.requires_grad_(False)
    return m


class Listener(nn.Module):
    def __init__(self, In, H, layers):
        super().__init__()
        self.layers = nn.ModuleList([bilstm(In if j == 0 else 4 * H, H) for j in range(layers)])

    def forward(self, x, lengths, packed):
        """x (B, T, In), lengths (B) -> y (B, T', 2H), T' = ceil(T / 2^(layers-1))."""
        y, n = x, lengths
        for j, layer in enumerate(self.layers):
            if j > 0:
                if y.shape[1] % 2:
                    y = F.pad(y, (0, 0, 0, 1))
                y = y.reshape(y.shape[0], y.shape[1] // 2, 2 * y.shape[2])
                n = (n + 1) // 2
            if packed:
                seq = rnn.pack_padded_sequence(y, n, batch_first=True, enforce_sorted=False)
                y, _ = rnn.pad_packed_sequence(layer(seq)[0], batch_first=True, total_length=y.shape[1])
            else:
                y, _ = layer(y)
        return y
