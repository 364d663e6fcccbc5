/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/dma-buf.h> (probe HAVE_DMA_BUF_INVALIDATE_MAPPINGS).
 *
 * Upstream renamed dma_buf_move_notify() to dma_buf_invalidate_mappings()
 * (and the importer's move_notify callback to invalidate_mappings:
 * that one is in ib_core's backport patch, an initializer). Same code.
 */
#ifndef _BACKPORT_LINUX_DMA_BUF_H
#define _BACKPORT_LINUX_DMA_BUF_H

#include_next <linux/dma-buf.h>

#ifndef HAVE_DMA_BUF_INVALIDATE_MAPPINGS
#define dma_buf_invalidate_mappings(dmabuf) dma_buf_move_notify(dmabuf)
#endif

#endif /* _BACKPORT_LINUX_DMA_BUF_H */
