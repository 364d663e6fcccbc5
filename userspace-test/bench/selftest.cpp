// xrc_bench --self-test: what can be checked without the device.
#include "ops.hpp"
#include "report.hpp"
#include "stats.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace xrc_bench {

using namespace xrcrcv;

namespace {

int failures = 0;
int checks = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "bench self-test: FAIL: %s\n", what.c_str());
  }
}

std::vector<std::byte> drain(int fd) {
  std::vector<std::byte> buf(4096);
  const ssize_t n = ::read(fd, buf.data(), buf.size());
  buf.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return buf;
}

// The bytes are the same but for the response pointer (8 bytes at
// `resp_at` in the request, if any), which points at each sender's own
// buffer.
void same_command(const char* name, std::vector<std::byte> ours, std::vector<std::byte> lib,
                  long resp_at) {
  const std::size_t hdr = sizeof(ib_uverbs_cmd_hdr);
  expect(ours.size() == lib.size() && !ours.empty(),
         std::string(name) + ": " + std::to_string(ours.size()) + " bytes, library sends " +
             std::to_string(lib.size()));
  if (ours.size() != lib.size() || ours.empty()) return;
  if (resp_at >= 0) {
    std::memset(ours.data() + hdr + resp_at, 0, 8);
    std::memset(lib.data() + hdr + resp_at, 0, 8);
  }
  expect(ours == lib, std::string(name) + ": bytes differ from xrcrcv::cmd::");
}

void encoding() {
  int p[2];
  if (pipe(p) != 0) {
    expect(false, "pipe");
    return;
  }
  UniqueFd rd(p[0]);
  const Context ctx = Context::adopt(UniqueFd(p[1]), UniqueFd());
  Ops ops(ctx.ref(), 7);
  std::uint32_t x = 0;

  (void)ops.reg(0x1234, &x);
  auto ours = drain(rd.get());
  (void)cmd::reg_xrc_rcv_qp(ctx, 7, 0x1234);
  same_command("REG", ours, drain(rd.get()), offsetof(ib_uverbs_reg_xrc_rcv_qp, response));

  (void)ops.reg(IB_UVERBS_XRC_RCV_QPN_NEW, &x);
  ours = drain(rd.get());
  (void)cmd::reg_xrc_rcv_qp(ctx, 7, IB_UVERBS_XRC_RCV_QPN_NEW);
  same_command("REG(NEW)", ours, drain(rd.get()), offsetof(ib_uverbs_reg_xrc_rcv_qp, response));

  (void)ops.unreg(0x1234);
  ours = drain(rd.get());
  (void)cmd::unreg_xrc_rcv_qp(ctx, 7, 0x1234);
  same_command("UNREG", ours, drain(rd.get()), -1);

  (void)ops.open_qp(0x1234, &x);
  ours = drain(rd.get());
  (void)cmd::open_qp(ctx, 7, 0x1234);
  same_command("OPEN_QP", ours, drain(rd.get()), offsetof(ib_uverbs_open_qp, response));

  (void)ops.create_qp(&x, &x);
  ours = drain(rd.get());
  (void)cmd::create_qp_xrc_tgt(ctx, 7);
  same_command("CREATE_QP", ours, drain(rd.get()), offsetof(ib_uverbs_create_qp, response));

  (void)ops.destroy_qp(5);
  ours = drain(rd.get());
  (void)cmd::destroy_qp(ctx, 5);
  same_command("DESTROY_QP", ours, drain(rd.get()), offsetof(ib_uverbs_destroy_qp, response));

  // QUERY_PORT has no cmd:: function: check the header and the port.
  (void)ops.query_port();
  ours = drain(rd.get());
  const auto h = wire::decode_hdr(ours);
  expect(h.command == IB_USER_VERBS_CMD_QUERY_PORT &&
             h.in_words * 4u == sizeof(ib_uverbs_cmd_hdr) + sizeof(ib_uverbs_query_port) &&
             h.out_words * 4u == sizeof(ib_uverbs_query_port_resp) &&
             ours.size() == h.in_words * 4u,
         "QUERY_PORT header");
  ib_uverbs_query_port q{};
  if (ours.size() >= sizeof(ib_uverbs_cmd_hdr) + sizeof q)
    std::memcpy(&q, ours.data() + sizeof(ib_uverbs_cmd_hdr), sizeof q);
  expect(q.port_num == 1, "QUERY_PORT asks for port 1");
}

bool near(double a, double b) { return std::fabs(a - b) < 1e-9; }

void statistics() {
  const Summary s = summarize({4, 1, 3, 2});
  expect(near(s.median, 2.5) && near(s.p25, 1.75) && near(s.p75, 3.25) && near(s.min, 1) &&
             near(s.max, 4) && s.n == 4,
         "summarize {4,1,3,2}");
  expect(near(summarize({7}).median, 7) && near(summarize({7}).p75, 7), "summarize {7}");
  expect(summarize({}).n == 0 && std::isnan(summarize({}).median), "summarize {}");
  const auto r = ratios({2, 9}, {1, 3});
  expect(r.size() == 2 && near(r[0], 2) && near(r[1], 3), "ratios");
}

void json() {
  expect(json_str("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"", "json_str escapes");
  expect(json_num(NAN) == "null" && json_num(1.5) == "1.5", "json_num");
  expect(json_list({1, 10}) == "[1,10]", "json_list");
  Report rep;
  rep.config("trials", "3");
  rep.add(Row{"lat.x", "latency", "x", "us", summarize({1, 2, 3}), {{"k", 0.5}}});
  const std::string j = rep.json(1.0);
  expect(j.find("\"schema\": \"xrc-rcv-bench/1\"") != std::string::npos &&
             j.find("\"id\": \"lat.x\"") != std::string::npos &&
             j.find("\"median\": 2,") != std::string::npos &&
             j.find("\"k\": 0.5") != std::string::npos &&
             j.find("\"config\": {\"trials\": 3}") != std::string::npos,
         "report JSON");
}

}  // namespace

int self_test() {
  encoding();
  statistics();
  json();
  std::printf("bench self-test: %d of %d checks passed\n", checks - failures, checks);
  return failures ? 1 : 0;
}

}  // namespace xrc_bench
