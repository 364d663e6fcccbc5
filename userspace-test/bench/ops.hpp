// The commands the bench times, each encoded once by the library's own
// wire encoder and then only patched and sent: REG and UNREG as the XRCD
// ioctl methods (RDMA_VERBS_IOCTL; the only way they reach the kernel),
// OPEN_QP, CREATE_QP, DESTROY_QP and QUERY_PORT as write commands.  The
// timed loops make no allocation and no copy beyond the system call
// itself, so what is measured is the kernel.  `xrc_bench --self-test`
// checks that these bytes are exactly the ones xrcrcv::cmd:: encodes.
#pragma once

#include <xrcrcv/xrcrcv.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>
#include <stdexcept>
#include <string>

namespace xrc_bench {

// A failed setup or timed step: the bench stops and exits 1.
struct Fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Header + request bytes of one write command.
class Command {
 public:
  template <class Req>
  Command(std::uint32_t command, const Req& req, std::size_t resp_bytes)
      : bytes_(xrcrcv::wire::encode_struct(command, req, resp_bytes)) {}

  // Patch a 32-bit request field at `offset` (offsetof within the request).
  void set_u32(std::size_t offset, std::uint32_t v);
  // write(2) on `fd`: 0, or the errno.
  [[nodiscard]] int send(int fd) const;
  [[nodiscard]] std::span<const std::byte> bytes() const { return bytes_; }

 private:
  xrcrcv::wire::Bytes bytes_;
};

// Header + attributes of one ioctl method call, 8-aligned for
// RDMA_VERBS_IOCTL.
class IoctlCall {
 public:
  IoctlCall(std::uint16_t object_id, std::uint16_t method_id,
            std::span<const ib_uverbs_attr> attrs)
      : buf_(xrcrcv::wire::encode_ioctl(object_id, method_id, attrs)) {}

  // Patch the inline data of attribute `index` (a PTR_IN of 4 bytes).
  void set_u32(std::size_t index, std::uint32_t v);
  // ioctl(2) on `fd`: 0, or the errno.
  [[nodiscard]] int send(int fd);
  [[nodiscard]] std::span<const std::uint64_t> words() const { return buf_; }

 private:
  std::vector<std::uint64_t> buf_;
};

// The timed commands of one (uverbs file, XRCD handle).  Responses land in
// members, which the encoded commands point at: neither copyable nor movable.
class Ops {
 public:
  Ops(xrcrcv::ContextRef ctx, std::uint32_t xrcd_handle);
  Ops(const Ops&) = delete;
  Ops& operator=(const Ops&) = delete;

  // Each returns 0 or the errno; the caller decides what is expected.
  // qp_num == xrcrcv::kNewRcvQp: REG without a number (create).
  int reg(std::optional<std::uint32_t> qp_num, std::uint32_t* out_qp_num);
  int unreg(std::uint32_t qp_num);
  int open_qp(std::uint32_t qp_num, std::uint32_t* out_handle);
  int create_qp(std::uint32_t* out_handle, std::uint32_t* out_qp_num);
  int destroy_qp(std::uint32_t handle);
  int query_port();

  // Same, throwing Fatal on any error.
  std::uint32_t must_reg(std::optional<std::uint32_t> qp_num);
  void must_unreg(std::uint32_t qp_num);
  std::uint32_t must_open_qp(std::uint32_t qp_num);
  std::uint32_t must_create_qp(std::uint32_t* out_qp_num = nullptr);
  void must_destroy_qp(std::uint32_t handle);
  void must_query_port();

  [[nodiscard]] const IoctlCall& reg_cmd() const { return reg_; }
  [[nodiscard]] const IoctlCall& create_cmd() const { return create_new_; }
  [[nodiscard]] const IoctlCall& unreg_cmd() const { return unreg_; }
  [[nodiscard]] const Command& open_qp_cmd() const { return open_; }
  [[nodiscard]] const Command& create_qp_cmd() const { return create_; }
  [[nodiscard]] const Command& destroy_qp_cmd() const { return destroy_; }
  [[nodiscard]] const Command& query_port_cmd() const { return query_port_; }

 private:
  int fd_;
  std::uint32_t reg_resp_ = 0;
  ib_uverbs_create_qp_resp open_resp_{};
  ib_uverbs_create_qp_resp create_resp_{};
  ib_uverbs_destroy_qp_resp destroy_resp_{};
  ib_uverbs_query_port_resp port_resp_{};
  IoctlCall reg_, create_new_, unreg_;
  Command open_, create_, destroy_, query_port_;
};

// One uverbs file (GET_CONTEXT) with its handle on the shared XRCD.  The
// XRCD handle is not closed separately: closing the file drops it, with
// every registration and QP handle the file holds.
class File {
 public:
  File(const std::string& device, const std::string& xrcd_file);
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  Ops& ops() { return *ops_; }
  // Another set of pre-encoded commands on the same file and XRCD, for a
  // second thread (an Ops is not shared between threads).
  [[nodiscard]] std::unique_ptr<Ops> more_ops() const;
  // Commands on a second handle of the same XRCD in the same file: to the
  // registration layer another owner (contract v2: ownership is per XRCD
  // handle). The handle is the file's until it is closed.
  [[nodiscard]] std::unique_ptr<Ops> ops_on_another_xrcd_handle();
  [[nodiscard]] std::uint32_t xrcd() const { return xrcd_; }
  [[nodiscard]] bool open() const { return open_; }
  // Close the uverbs file now (both descriptors): the kernel drops what
  // the file holds before close(2) returns.
  void close();
  ~File();

 private:
  xrcrcv::Context ctx_;
  std::string xrcd_file_;
  std::uint32_t xrcd_ = 0;
  std::unique_ptr<Ops> ops_;
  bool open_ = true;
};

// Device-free checks of the encoding (against xrcrcv::cmd:: through a
// pipe, and the library's ioctl encoding), the statistics and the JSON
// writer.  Returns the exit status.
int self_test();

}  // namespace xrc_bench
