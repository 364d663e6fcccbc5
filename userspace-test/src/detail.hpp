// Internal helpers shared by the library's sources.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/wire.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>

namespace xrcrcv::detail {

// Encode header + body (+ trailing) and write(2) it on the command fd.
// Never retried: a repeated REG would take a second reference.
Status execute(ContextRef ctx, std::uint32_t command, std::span<const std::byte> body,
               std::size_t resp_bytes, std::span<const std::byte> trailing = {});

// RDMA_VERBS_IOCTL of one method on UVERBS_OBJECT_XRCD (or any object);
// errors name `command`, the write command that does the same.  Never
// retried either.
Status execute_ioctl(ContextRef ctx, std::uint16_t object_id, std::uint16_t method_id,
                     std::span<const ib_uverbs_attr> attrs, std::uint32_t command,
                     std::uint32_t driver_id = 0);
Status execute_ioctl_buffer(ContextRef ctx, std::span<std::uint64_t> buf, std::uint32_t command);

// poll(2) an fd for input: true when a read will not block, false when
// `timeout` passed first (async events, raw or libibverbs').
Result<bool> wait_readable(int fd, std::chrono::milliseconds timeout);

}  // namespace xrcrcv::detail
