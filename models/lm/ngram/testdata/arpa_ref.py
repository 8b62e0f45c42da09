#!/usr/bin/python3
"""Independent reference for models/ngram: sentence log10 probabilities of
an ARPA back-off model by the textbook rule, standard library only.

    p(w | h) = p*(h w)              if "h w" is listed
             = bow(h) * p(w | h')   otherwise (bow(h) = 1 if h is not listed)

with h cut to the last order-1 words and h' = h without its first word.
A sentence is scored as <s> w1 ... wn </s>: the sum of log10 p over the
words and </s>. A word that is not a unigram is scored as <unk>; a model
without <unk> gets one as KenLM does, a unigram of log10 prob -100 (so an
unknown word costs the back-off weights of its context plus -100).

Usage: arpa_ref.py MODEL.arpa SENTENCES.txt
prints "log10prob<TAB>oovs<TAB>sentence" for each line of SENTENCES.txt.

Regenerate the golden file the Go test reads (from models/ngram):

    for m in turtle tidigits; do
        testdata/arpa_ref.py testdata/$m.arpa testdata/$m.sentences.txt > testdata/$m.golden.tsv
    done
"""
import gzip
import sys


def read_arpa(path):
    opener = open
    with open(path, "rb") as f:
        if f.read(2) == b"\x1f\x8b":
            opener = gzip.open
    prob, bow, order, n = {}, {}, 0, 0
    in_data = False
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "\\data\\":
                in_data = True
                continue
            if not in_data:
                continue
            if fields[0] == "\\end\\":
                break
            if fields[0].startswith("\\") and fields[0].endswith("-grams:"):
                n = int(fields[0][1:-len("-grams:")])
                order = max(order, n)
                continue
            if n == 0:
                continue  # the ngram N=count lines
            key = tuple(fields[1:1 + n])
            prob[key] = float(fields[0])
            if len(fields) > n + 1:
                bow[key] = float(fields[n + 1])
    prob.setdefault(("<unk>",), -100.0)
    return prob, bow, order


def logp(prob, bow, order, history, w):
    history = tuple(history[-(order - 1):]) if order > 1 else ()
    total = 0.0
    for i in range(len(history) + 1):
        ctx = history[i:]
        if ctx + (w,) in prob:
            return total + prob[ctx + (w,)]
        total += bow.get(ctx, 0.0)
    raise KeyError(w)


def sentence(prob, bow, order, words):
    history, total, oovs = ["<s>"], 0.0, 0
    for w in words + ["</s>"]:
        if (w,) not in prob:
            oovs += 1
            w = "<unk>"
        total += logp(prob, bow, order, history, w)
        history.append(w)
    return total, oovs


def main():
    prob, bow, order = read_arpa(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            words = line.split()
            total, oovs = sentence(prob, bow, order, words)
            print("%.6f\t%d\t%s" % (total, oovs, " ".join(words)))


if __name__ == "__main__":
    main()
