#include "script.hpp"

#include <cctype>
#include <charconv>

namespace xrcrcv::cli {

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size() || line[i] == '#') break;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    out.emplace_back(line.substr(start, i - start));
  }
  return out;
}

std::vector<Step> parse_script(std::string_view text) {
  std::vector<Step> steps;
  std::size_t start = 0;
  bool in_comment = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size();
    const char c = end ? '\n' : text[i];
    if (c == '#') in_comment = true;
    if (c == '\n' || (c == ';' && !in_comment)) {
      auto words = split_words(text.substr(start, i - start));
      if (!words.empty()) steps.push_back(Step{std::move(words)});
      start = i + 1;
      if (c == '\n') in_comment = false;
    }
  }
  return steps;
}

std::optional<std::uint32_t> parse_u32(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  std::uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace xrcrcv::cli
