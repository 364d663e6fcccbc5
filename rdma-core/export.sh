#!/bin/bash
# make rdma-core-export: format-patch the workbench back into patches/rdma-core/
source "$(dirname "$0")/lib.sh"
rc_export "$RC_TREE" "$RC_BASE_REF" "$RC_SERIES_REF" "$RC_BASE_COMMIT"
