#!/bin/bash
# deps.sh: the workbench's packages plus the pinned headers of every
# target kernel (backport/kernels), and what the install, the package and
# the boot proof use (rsync, cpio, openssl for the test signing key; dkms
# itself is only downloaded). Idempotent, like scripts/deps.sh.
#
# Note: Debian's linux-headers-6.12.*-amd64 depends on the matching
# linux-image-*-unsigned, so installing those headers also installs that
# image package on the host (it is never booted: no bootloader runs here).
# The 6.1 image of the boot proof is only downloaded (boot-test.sh).
source "$(dirname "$0")/lib.sh"

exec "$TOP/scripts/deps.sh" linux-source-6.12=6.12.118-1~deb12u1 $(kernels | awk '{ print $2 }') patch kmod rsync cpio openssl
