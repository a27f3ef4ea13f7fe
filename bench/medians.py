#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Median, lowest and highest of each figure over the rounds of a bench script.

  medians.py RAW     RAW: lines "ROUND NAME VALUE", in the order the figures came"""
import collections
import statistics
import sys

figures = collections.OrderedDict()
for line in open(sys.argv[1]):
    _, name, value = line.split()
    figures.setdefault(name, []).append(float(value))
for name, xs in figures.items():
    print("%-26s median %10.2f   min %10.2f   max %10.2f   (n=%d)" %
          (name, statistics.median(xs), min(xs), max(xs), len(xs)))
