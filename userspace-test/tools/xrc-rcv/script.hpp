// The xrc-rcv step language: steps separated by ';' or newlines, words by
// blanks, '#' starts a comment.  `create; save /tmp/qpn; sleep 1`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xrcrcv::cli {

struct Step {
  std::vector<std::string> words;
  friend bool operator==(const Step&, const Step&) = default;
};

// Split a script into steps; empty steps are dropped.
std::vector<Step> parse_script(std::string_view text);
// Split one line (no ';' handling) into words.
std::vector<std::string> split_words(std::string_view line);

// Unsigned 32-bit number: decimal or 0x-hex.
std::optional<std::uint32_t> parse_u32(std::string_view s);

}  // namespace xrcrcv::cli
