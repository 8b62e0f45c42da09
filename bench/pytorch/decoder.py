"""The attention decoder of models/asr/speller.go (asr.Speller), in PyTorch.

Import only after common.init_torch (it imports torch).

At output step i, with y_{i-1} the previous token and c_{i-1} the previous
context (input feeding, Luong et al. 2015 §3.3; LAS eqs. 6-8):

    s_i      = LSTM([E y_{i-1} ; c_{i-1}], s_{i-1})          (B, H)
    e_i,t    = v . tanh(W s_i + U k_t + b)                   (B, T)
    a_i      = softmax(e_i)  (padded t masked to -inf)       (B, T)
    c_i      = sum_t a_i,t k_t                               (B, D)
    logits_i = W_o [s_i ; c_i] + b_o                         (B, V)

U k + b is computed once per batch (one GEMM), as our Prepare does. The
first state and context are zero. Padding tokens (id -1, our models.PadID)
embed to zero.

Parameters match ours one for one (names in brackets):
    embed.weight (V, E)                     [dec.embed.table (V, E)]
    cell: stacked gates, one bias           [dec.lstm.wx (E+D, 4H), .wh (H, 4H), .b (4H)]
    att.w (H, A), att.u (D, A), att.b (A), att.v (A)   [dec.att.*]
    out.weight (V, H+D), out.bias (V)       [dec.out.w (H+D, V), .b (V)]

Two cells compute the same function:
    "torch"  nn.LSTMCell (PyTorch's C++ cell; its second bias bias_hh is
             frozen at zero, so the trainable parameters are ours exactly)
    "manual" x Wx + h Wh + b in two addmm, then the gates in Python
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

import common

PAD = -1


class AdditiveAttention(nn.Module):
    """Bahdanau attention e_t = v . tanh(W q + U k_t + b)."""

    def __init__(self, H, D, A):
        super().__init__()
        self.w = nn.Parameter(common.glorot_(torch.empty(H, A), H, A))
        self.u = nn.Parameter(common.glorot_(torch.empty(D, A), D, A))
        self.b = nn.Parameter(torch.zeros(A))
        self.v = nn.Parameter(torch.empty(A).uniform_(-1 / math.sqrt(A), 1 / math.sqrt(A)))

    def prepare(self, memory):
        """U k + b for every entry: memory (B, T, D) -> (B, T, A)."""
        B, T, D = memory.shape
        return torch.addmm(self.b, memory.reshape(B * T, D), self.u).view(B, T, -1)

    def step(self, proj, memory, pad, h):
        """One step: weights (B, T) and context (B, D).

        pad (B, T) is True at padded entries, or None for no padding.
        """
        e = torch.tanh(proj + (h @ self.w).unsqueeze(1)) @ self.v  # (B, T)
        if pad is not None:
            e = e.masked_fill(pad, float("-inf"))
        alpha = torch.softmax(e, dim=1)  # (B, T)
        ctx = torch.bmm(alpha.unsqueeze(1), memory).squeeze(1)  # (B, D)
        return alpha, ctx


class ManualLSTMCell(nn.Module):
    """LSTM cell with stacked gates and one bias, models.LSTM exactly."""

    def __init__(self, In, H):
        super().__init__()
        self.wx = nn.Parameter(common.glorot_(torch.empty(In, 4 * H), In, 4 * H))
        self.wh = nn.Parameter(common.orthogonal_blocks_(torch.empty(H, 4 * H), H, 4 * H))
        b = torch.zeros(4 * H)
        b[H : 2 * H] = 1  # forget gate
        self.b = nn.Parameter(b)

    def forward(self, x, state):
        h, c = state
        gates = torch.addmm(self.b, x, self.wx).addmm_(h, self.wh)  # (B, 4H)
        i, f, o, g = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


def torch_lstm_cell(In, H):
    """nn.LSTMCell initialized like ours, bias_hh frozen at zero."""
    cell = nn.LSTMCell(In, H)
    common.glorot_(cell.weight_ih, In, 4 * H)
    common.orthogonal_blocks_(cell.weight_hh, H, 4 * H, transposed=True)
    with torch.no_grad():
        cell.bias_ih.zero_()
        cell.bias_ih[H : 2 * H] = 1  # PyTorch's order is [i f g o]: f is block 1 too
        cell.bias_hh.zero_()
    cell.bias_hh.requires_grad_(False)
    return cell


class Decoder(nn.Module):
    def __init__(self, V, E, H, D, A, cell="torch"):
        super().__init__()
        self.H, self.D = H, D
        self.embed = nn.Embedding(V, E)
        with torch.no_grad():
            self.embed.weight.uniform_(-0.1, 0.1)
        if cell == "torch":
            self.cell = torch_lstm_cell(E + D, H)
        elif cell == "manual":
            self.cell = ManualLSTMCell(E + D, H)
        else:
            raise ValueError(f"cell {cell!r}, want torch or manual")
        self.att = AdditiveAttention(H, D, A)
        self.out = nn.Linear(H + D, V)
        common.glorot_(self.out.weight, H + D, V)
        with torch.no_grad():
            self.out.bias.zero_()

    def embed_ids(self, ids):
        """Embeddings of ids (...), zero for PAD: (..., E)."""
        real = ids != PAD
        return self.embed(ids.clamp(min=0)) * real.unsqueeze(-1)

    def start(self, B):
        z = torch.zeros(B, self.H)
        return (z, z.clone()), torch.zeros(B, self.D)

    def unroll(self, memory, pad, inputs):
        """Teacher-forced logits (S*B, V), step-major, from inputs (S, B)."""
        S, B = inputs.shape
        proj = self.att.prepare(memory)  # (B, T, A)
        emb = self.embed_ids(inputs)  # (S, B, E)
        state, ctx = self.start(B)
        outs = []
        for i in range(S):
            state = self.cell(torch.cat([emb[i], ctx], 1), state)  # (B, H) x 2
            _, ctx = self.att.step(proj, memory, pad, state[0])  # (B, D)
            outs.append(torch.cat([state[0], ctx], 1))  # (B, H+D)
        return self.out(torch.cat(outs, 0))  # (S*B, V)

    def step(self, proj, memory, pad, state, ctx, tokens):
        """One eager step: logits (B, V), next state, context.

        pad (B, T) is True at padded memory entries, or None.
        """
        x = torch.cat([self.embed_ids(tokens), ctx], 1)
        state = self.cell(x, state)
        _, ctx = self.att.step(proj, memory, pad, state[0])
        logits = self.out(torch.cat([state[0], ctx], 1))
        return logits, state, ctx
