#!/usr/bin/env python3
"""Writes caption_golden.json: BLEU-1..4, ROUGE-L and CIDEr-D of small
corpora as computed by the COCO caption evaluation's own scorer code
(pycocoevalcap: bleu/bleu_scorer.py, rouge/rouge.py, cider/cider_scorer.py),
which the Go tests in ../caption_golden_test.go compare against.

The inputs are already tokenized (space-separated tokens), so the Java PTB
tokenizer is not involved; the scorers are called as pycocoevalcap's
Bleu, Rouge and Cider wrappers call them.

Usage (needs numpy and an importable pycocoevalcap package, e.g.
`pip install pycocoevalcap`, or a directory laid out like it on
PYTHONPATH):

    python3 caption_golden.py > caption_golden.json
    python3 caption_golden.py --flickr8k ../../../../shared/data/flickr8k \
        > caption_golden_flickr8k.json

The second form scores Flickr8k's dev captions against each other (see
flickr8k_case) and writes only the resulting numbers, never the captions.
"""

import argparse
import json
import os
import random
import sys

from pycocoevalcap.bleu.bleu_scorer import BleuScorer
from pycocoevalcap.cider.cider_scorer import CiderScorer
from pycocoevalcap.rouge.rouge import Rouge

# pycocoevalcap/tokenizer/ptbtokenizer.py's list of removed tokens.
PUNCTUATIONS = ["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-",
                ".", "?", "!", ",", ":", "-", "--", "...", ";"]


def score(samples):
    """samples: list of (candidate, [references]) token strings."""
    bleu = BleuScorer(n=4)
    cider = CiderScorer(n=4, sigma=6.0)
    rouge = Rouge()
    rouge_per = []
    for cand, refs in samples:
        bleu += (cand, refs)
        cider += (cand, refs)
        rouge_per.append(rouge.calc_score([cand], refs))
    b, _ = bleu.compute_score(option="closest", verbose=0)
    c, c_per = cider.compute_score()
    return {
        "bleu": list(b),
        "rouge_l": float(sum(rouge_per) / len(rouge_per)),
        "rouge_l_per": rouge_per,
        "cider_d": float(c),
        "cider_d_per": [float(x) for x in c_per],
    }


def random_sentence(rng, words, lo, hi):
    return " ".join(rng.choice(words) for _ in range(rng.randint(lo, hi)))


def random_corpus(seed, images, words, lo, hi, max_refs, empty_every=0):
    rng = random.Random(seed)
    out = []
    for i in range(images):
        refs = [random_sentence(rng, words, max(lo, 1), hi)
                for _ in range(rng.randint(1, max_refs))]
        if empty_every and i % empty_every == 0:
            cand = ""
        elif rng.random() < 0.2:
            # A near copy of a reference: drop and repeat words.
            w = rng.choice(refs).split()
            w = [x for x in w if rng.random() > 0.2] + w[: rng.randint(0, 2)]
            cand = " ".join(w)
        else:
            cand = random_sentence(rng, words, lo, hi)
        out.append((cand, refs))
    return out


def cases():
    papineni = [
        ("It is a guide to action which ensures that the military always "
         "obeys the commands of the party",
         ["It is a guide to action that ensures that the military will "
          "forever heed Party commands",
          "It is the guiding principle which guarantees the military forces "
          "always being under the command of the Party",
          "It is the practical guide for the army always to heed the "
          "directions of the party"]),
        ("he read the book because he was interested in world history",
         ["he was interested in world history because he read the book"]),
    ]
    zipf = ["a", "the", "dog", "man", "in", "on", "is", "of", "with", "and",
            "two", "red", "ball", "running", "runs", "grass", "water",
            "playing", "plays", "girl", "boy", "shirt", "white", "black",
            "street", "people", "field", "jumps", "jumping", "brown"]
    zipf = [w for i, w in enumerate(zipf) for _ in range(max(1, 8 - i // 2))]
    return [
        ("papineni", papineni),
        ("perfect", [("a dog runs on the grass",
                      ["a dog runs on the grass", "a brown dog is running"]),
                     ("two people in a field",
                      ["two people in a field", "people stand in the field"])]),
        ("disjoint", [("x y z w", ["a b c d", "e f g"]),
                      ("p q", ["a b c d e"])]),
        ("repeated words", [("the the the the the the the",
                             ["the cat is on the mat",
                              "there is a cat on the mat"])]),
        ("short candidates", [("dog", ["a dog runs", "the dog"]),
                              ("a", ["a man", "a woman sits"]),
                              ("", ["an empty candidate scores zero"])]),
        ("length tie", [("a b c d", ["a b c", "a b c d e"]),
                        ("a b", ["a b c d e f", "a"])]),
        ("random small", random_corpus(1, 60, list("abcdefghij"), 0, 9, 5,
                                       empty_every=17)),
        ("random captions", random_corpus(2, 300, zipf, 4, 16, 5)),
    ]


def flickr8k_case(root):
    """Flickr8k dev: caption #0 of each image is the candidate, #1-#4 the
    references; tokens are the file's (already PTB-tokenized) tokens,
    lower-cased, without coco-caption's punctuation tokens."""
    with open(os.path.join(root, "dev.txt")) as f:
        dev = [l.strip() for l in f if l.strip()]
    caps = {}
    with open(os.path.join(root, "captions.txt")) as f:
        for line in f:
            key, text = line.rstrip("\n").split("\t", 1)
            name, n = key.rsplit("#", 1)
            toks = [t for t in text.lower().split() if t not in PUNCTUATIONS]
            caps.setdefault(name, {})[int(n)] = " ".join(toks)
    samples = []
    for name in sorted(dev):
        c = caps[name]
        samples.append((c[0], [c[k] for k in sorted(c) if k != 0]))
    out = score(samples)
    del out["rouge_l_per"], out["cider_d_per"]
    out["images"] = len(samples)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flickr8k", help="Flickr8k directory (captions.txt, dev.txt)")
    args = ap.parse_args()
    if args.flickr8k:
        json.dump(flickr8k_case(args.flickr8k), sys.stdout, indent=1)
        print()
        return
    out = []
    for name, samples in cases():
        c = {"name": name,
             "samples": [{"cand": s, "refs": r} for s, r in samples]}
        c.update(score(samples))
        out.append(c)
    json.dump({"cases": out}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
