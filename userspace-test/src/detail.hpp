// Internal helpers shared by the library's sources.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/wire.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace xrcrcv::detail {

// Encode header + body (+ trailing) and write(2) it on the command fd.
// Never retried: a repeated REG would take a second reference.
Status execute(ContextRef ctx, std::uint32_t command, std::span<const std::byte> body,
               std::size_t resp_bytes, std::span<const std::byte> trailing = {});

}  // namespace xrcrcv::detail
