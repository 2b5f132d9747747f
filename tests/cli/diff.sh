#!/bin/sh
. "$TCR_SRCDIR/tests/cli/lib.sh"
finish
