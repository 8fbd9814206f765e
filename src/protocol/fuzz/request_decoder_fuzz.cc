// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for the request decoder (run by scripts/test-fuzz). Each input is a
// request frame without its size prefix. It is decoded the way the broker does (header, then
// the body with the decoder its key and version pick), and the whole input is also fed to
// every request and response decoder in every version (one past each end too) and to the
// record-batch parsers. Nothing may crash, leak or read out of bounds, and whatever decodes must
// re-encode to bytes that decode to an equal message (the process aborts otherwise).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <type_traits>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/messages/request_types.h"
#include "protocol/record_batch.h"
#include "protocol/request_header.h"

namespace kgroups::protocol {
namespace {

template <class Request>
void check_decoder(std::span<const std::uint8_t> body, std::int16_t version) {
  WireReader reader(body);
  Result<Request> request = Request::decode(reader, version);
  if (!request) return;
  if (reader.position() > body.size()) std::abort();
  std::vector<std::uint8_t> encoded;
  WireWriter writer(encoded);
  request->encode(writer, version);
  WireReader again(encoded);
  Result<Request> decoded = Request::decode(again, version);
  if (!decoded || !(*decoded == *request) || again.remaining() != 0) std::abort();
}

template <class Request>
void check_every_version(std::span<const std::uint8_t> body) {
  for (int version = Request::kMinVersion - 1; version <= Request::kMaxVersion + 1; ++version) {
    check_decoder<Request>(body, static_cast<std::int16_t>(version));
  }
}

void fuzz_one(std::span<const std::uint8_t> input) {
  WireReader reader(input);
  Result<RequestHeader> header = decode_request_header(reader);
  if (header) {
    const auto body = input.subspan(reader.position());
    visit_request_type(header->api_key, [&](auto* tag) {
      check_decoder<std::remove_pointer_t<decltype(tag)>>(body, header->api_version);
    });
  }
  for (const ApiKey key : kRequestTypeKeys) {
    visit_request_type(
        key, [&](auto* tag) { check_every_version<std::remove_pointer_t<decltype(tag)>>(input); });
  }
  // Clients decode responses with the same reader, so they get the same treatment.
  for (const ApiKey key : kRequestTypeKeys) {
    visit_response_type(
        key, [&](auto* tag) { check_every_version<std::remove_pointer_t<decltype(tag)>>(input); });
  }
  Result<std::vector<RecordBatchView>> batches = split_record_batches(input);
  if (batches) {
    for (const RecordBatchView& batch : *batches) {
      if (batch.bytes.size() != batch.header.size_bytes()) std::abort();
      (void)decode_batch_records(batch.bytes);
    }
  }
  (void)decode_batch_records(input);
}

}  // namespace
}  // namespace kgroups::protocol

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kgroups::protocol::fuzz_one(std::span<const std::uint8_t>(data, size));
  return 0;
}
