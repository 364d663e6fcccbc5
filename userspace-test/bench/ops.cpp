#include "ops.hpp"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <sys/ioctl.h>
#include <unistd.h>

namespace xrc_bench {

using namespace xrcrcv;

namespace {

constexpr std::size_t kHdr = sizeof(ib_uverbs_cmd_hdr);

[[noreturn]] void fail(std::string_view what, int err) {
  throw Fatal(std::string(what) + ": " + std::string(errno_name(err)) + " (" +
              std::strerror(err) + ")");
}

Result<Context> open_context(const std::string& device) {
  auto ctx = Context::open(device);
  if (!ctx) throw Fatal("open " + device + ": " + ctx.error().message());
  return ctx;
}

}  // namespace

void Command::set_u32(std::size_t offset, std::uint32_t v) {
  std::memcpy(bytes_.data() + kHdr + offset, &v, sizeof v);
}

int Command::send(int fd) const {
  const ssize_t n = ::write(fd, bytes_.data(), bytes_.size());
  if (n < 0) return errno;
  return static_cast<std::size_t>(n) == bytes_.size() ? 0 : EIO;
}

void IoctlCall::set_u32(std::size_t index, std::uint32_t v) {
  auto* attrs = reinterpret_cast<ib_uverbs_attr*>(reinterpret_cast<std::byte*>(buf_.data()) +
                                                  sizeof(ib_uverbs_ioctl_hdr));
  std::memcpy(&attrs[index].data, &v, sizeof v);
}

int IoctlCall::send(int fd) {
  return ::ioctl(fd, RDMA_VERBS_IOCTL, buf_.data()) == 0 ? 0 : errno;
}

// The attributes' positions in the encoded calls (wire:: orders them by id)
constexpr std::size_t kRegNumAt = 1;    // XRCD, NUM, RESP_NUM
constexpr std::size_t kUnregNumAt = 1;  // XRCD, NUM

static ib_uverbs_open_qp open_req(std::uint32_t xrcd, ib_uverbs_create_qp_resp* r) {
  ib_uverbs_open_qp c{};
  c.response = wire::user_ptr(r);
  c.pd_handle = xrcd;  // XRC TGT: the XRCD travels in pd_handle
  c.qp_type = kQptXrcTgt;
  return c;
}

static ib_uverbs_create_qp create_req(std::uint32_t xrcd, ib_uverbs_create_qp_resp* r) {
  ib_uverbs_create_qp c{};
  c.response = wire::user_ptr(r);
  c.pd_handle = xrcd;
  c.qp_type = kQptXrcTgt;
  return c;
}

static ib_uverbs_destroy_qp destroy_req(ib_uverbs_destroy_qp_resp* r) {
  ib_uverbs_destroy_qp c{};
  c.response = wire::user_ptr(r);
  return c;
}

static ib_uverbs_query_port port_req(ib_uverbs_query_port_resp* r) {
  ib_uverbs_query_port c{};
  c.response = wire::user_ptr(r);
  c.port_num = 1;
  return c;
}

Ops::Ops(ContextRef ctx, std::uint32_t xrcd)
    : fd_(ctx.cmd_fd),
      reg_(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP,
           wire::reg_rcv_qp_attrs(xrcd, 0, &reg_resp_)),
      create_new_(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP,
                  wire::create_rcv_qp_attrs(xrcd, &reg_resp_)),
      unreg_(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_UNREG_RCV_QP,
             wire::unreg_rcv_qp_attrs(xrcd, 0)),
      open_(IB_USER_VERBS_CMD_OPEN_QP, open_req(xrcd, &open_resp_), sizeof open_resp_),
      create_(IB_USER_VERBS_CMD_CREATE_QP, create_req(xrcd, &create_resp_), sizeof create_resp_),
      destroy_(IB_USER_VERBS_CMD_DESTROY_QP, destroy_req(&destroy_resp_), sizeof destroy_resp_),
      query_port_(IB_USER_VERBS_CMD_QUERY_PORT, port_req(&port_resp_), sizeof port_resp_) {}

int Ops::reg(std::optional<std::uint32_t> qp_num, std::uint32_t* out) {
  // A number no QP has: a create must overwrite it
  constexpr std::uint32_t kNoAnswer = 0xffffffffU;
  reg_resp_ = kNoAnswer;
  if (qp_num) {
    reg_.set_u32(kRegNumAt, *qp_num);
    if (const int e = reg_.send(fd_)) return e;
  } else if (const int e = create_new_.send(fd_)) {
    return e;
  }
  if (!qp_num && reg_resp_ == kNoAnswer) return EPROTO;
  if (out) *out = reg_resp_;
  return 0;
}

int Ops::unreg(std::uint32_t qp_num) {
  unreg_.set_u32(kUnregNumAt, qp_num);
  return unreg_.send(fd_);
}

int Ops::open_qp(std::uint32_t qp_num, std::uint32_t* out) {
  open_.set_u32(offsetof(ib_uverbs_open_qp, qpn), qp_num);
  if (const int e = open_.send(fd_)) return e;
  if (out) *out = open_resp_.qp_handle;
  return 0;
}

int Ops::create_qp(std::uint32_t* out_handle, std::uint32_t* out_qp_num) {
  if (const int e = create_.send(fd_)) return e;
  if (out_handle) *out_handle = create_resp_.qp_handle;
  if (out_qp_num) *out_qp_num = create_resp_.qpn;
  return 0;
}

int Ops::destroy_qp(std::uint32_t handle) {
  destroy_.set_u32(offsetof(ib_uverbs_destroy_qp, qp_handle), handle);
  return destroy_.send(fd_);
}

int Ops::query_port() { return query_port_.send(fd_); }

std::uint32_t Ops::must_reg(std::optional<std::uint32_t> qp_num) {
  std::uint32_t n = 0;
  if (const int e = reg(qp_num, &n)) fail("REG_XRC_RCV_QP", e);
  return n;
}

void Ops::must_unreg(std::uint32_t qp_num) {
  if (const int e = unreg(qp_num)) fail("UNREG_XRC_RCV_QP", e);
}

std::uint32_t Ops::must_open_qp(std::uint32_t qp_num) {
  std::uint32_t h = 0;
  if (const int e = open_qp(qp_num, &h)) fail("OPEN_QP", e);
  return h;
}

std::uint32_t Ops::must_create_qp(std::uint32_t* out_qp_num) {
  std::uint32_t h = 0;
  if (const int e = create_qp(&h, out_qp_num)) fail("CREATE_QP(XRC_TGT)", e);
  return h;
}

void Ops::must_destroy_qp(std::uint32_t handle) {
  if (const int e = destroy_qp(handle)) fail("DESTROY_QP", e);
}

void Ops::must_query_port() {
  if (const int e = query_port()) fail("QUERY_PORT", e);
}

namespace {

// The handle stays open until the file is closed
std::uint32_t open_xrcd_handle(xrcrcv::Context& ctx, const std::string& xrcd_file) {
  auto x = Xrcd::open(ctx, xrcd_file);
  if (!x) throw Fatal("OPEN_XRCD on " + xrcd_file + ": " + x.error().message());
  return x->release();
}

}  // namespace

File::File(const std::string& device, const std::string& xrcd_file)
    : ctx_(std::move(*open_context(device))), xrcd_file_(xrcd_file) {
  xrcd_ = open_xrcd_handle(ctx_, xrcd_file_);
  ops_ = std::make_unique<Ops>(ctx_.ref(), xrcd_);
}

std::unique_ptr<Ops> File::more_ops() const { return std::make_unique<Ops>(ctx_.ref(), xrcd_); }

std::unique_ptr<Ops> File::ops_on_another_xrcd_handle() {
  return std::make_unique<Ops>(ctx_.ref(), open_xrcd_handle(ctx_, xrcd_file_));
}

void File::close() {
  if (!open_) return;
  open_ = false;
  if (const int e = ctx_.close()) fail("close(uverbs file)", e);
}

File::~File() {
  if (open_) (void)ctx_.close();
}

}  // namespace xrc_bench
