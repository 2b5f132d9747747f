#!/bin/sh
# convert.sh - tcreview convert: not written yet.
exit 77
