#!/bin/sh
# no_cmocka.sh - stands in for the unit tests when cmocka was not found.
echo "cmocka was not found by configure: install libcmocka-dev (./setup.sh does) and reconfigure"
exit 1
