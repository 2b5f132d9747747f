#!/bin/sh
# setup.sh - install what tcreview needs to build, then build it.
#
# On Debian or Ubuntu it installs the missing build dependencies with
# apt-get (as root directly, else through sudo; where neither is possible
# it prints the apt-get line to run and stops). Then it configures the tree
# once and runs make. Running it again is quick: nothing is redone that
# does not need to be.
#
#   ./setup.sh          the build dependencies, then configure and make
#   ./setup.sh --fuzz   also clang with libFuzzer (libclang-rt-dev), for
#                       CC=clang CXX=clang++ ./configure --enable-fuzzing
set -eu
cd "$(dirname "$0")"
FUZZ=no
case "${1:-}" in
--fuzz) FUZZ=yes ;;
"") ;;
*) echo "usage: ./setup.sh [--fuzz]" >&2; exit 2 ;;
esac

# Debian packages, and a file or command each one provides.
PKGS="build-essential:cc autoconf:autoreconf automake:aclocal libtool:libtoolize pkg-config:pkg-config
libjansson-dev:jansson libyaml-dev:yaml-0.1 libcurl4-openssl-dev:libcurl libncurses-dev:ncursesw
nettle-dev:nettle libcmocka-dev:cmocka libsimdjson-dev:simdjson libutf8proc-dev:libutf8proc libzip-dev:libzip libjq-dev:/usr/include/jq.h g++:g++ tmux:tmux curl:curl jq:jq"

# libclang-rt-dev holds libFuzzer; its probe is the library clang finds.
[ "$FUZZ" = yes ] && PKGS="$PKGS clang:clang libclang-rt-dev:libfuzzer"

missing=""
for entry in $PKGS; do
	pkg=${entry%%:*}
	probe=${entry#*:}
	case $probe in
	jansson|yaml-0.1|libcurl|ncursesw|nettle|cmocka|simdjson|libutf8proc|libzip)
		if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$probe"; then continue; fi ;;
	/*)
		if [ -e "$probe" ]; then continue; fi ;;
	libfuzzer)
		if command -v clang >/dev/null 2>&1 && [ -f "$(clang -print-file-name=libclang_rt.fuzzer-$(uname -m).a)" ]; then continue; fi ;;
	*)
		if command -v "$probe" >/dev/null 2>&1; then continue; fi ;;
	esac
	missing="$missing $pkg"
done

if [ -n "$missing" ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "setup.sh: missing build dependencies:$missing" >&2
		echo "setup.sh: this is not a Debian or Ubuntu system; install them with your package manager" >&2
		exit 1
	fi
	if [ "$(id -u)" = 0 ]; then
		SUDO=""
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		SUDO="sudo"
	else
		echo "setup.sh: missing build dependencies; run as root:" >&2
		echo "  apt-get update && apt-get install -y$missing" >&2
		exit 1
	fi
	echo "setup.sh: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
	autoreconf -fi
fi
if [ ! -f Makefile ] || [ configure -nt config.status ]; then
	./configure ${TCR_CONFIGURE_FLAGS:-}
fi
make -j"$(nproc 2>/dev/null || echo 2)"
