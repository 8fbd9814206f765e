// SPDX-License-Identifier: Apache-2.0
//
// Frames recorded from real clients and brokers (testdata/*_frames.txt for requests,
// testdata/mock_responses.txt for responses; one frame a line: "<client> <api_key>
// <api_version> <hex of the frame after its size prefix>"), loaded for the golden-bytes
// tests, and decode_frame() to decode a request frame with a request type's decoder.
// Test-only; thread-safe as plain values.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/request_header.h"
#include "protocol/result.h"
#include "protocol/wire_reader.h"

namespace kgroups::protocol {

struct RecordedFrame {
  std::string client;
  int api_key = 0;
  int api_version = 0;
  std::vector<std::uint8_t> bytes;
};

// The frames of testdata/`file_name`; '#' lines are comments.
inline std::vector<RecordedFrame> load_recorded_frames(const std::string& file_name) {
  // A path, not std::string concatenation: GCC 12 at -O2 reports a false -Warray-bounds
  // in the inlined string append (Release builds of the tests failed with -Werror).
  std::ifstream file(std::filesystem::path(KGROUPS_PROTOCOL_TESTDATA) / file_name);
  std::vector<RecordedFrame> frames;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    RecordedFrame frame;
    std::string hex;
    fields >> frame.client >> frame.api_key >> frame.api_version >> hex;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
      frame.bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    frames.push_back(std::move(frame));
  }
  return frames;
}

// Decodes header + body of `frame` with the decoder of `Request`; a body with bytes left
// over is kInvalidRequest.
template <class Request>
Result<Request> decode_frame(const RecordedFrame& frame, RequestHeader& header) {
  WireReader reader(frame.bytes);
  Result<RequestHeader> decoded_header = decode_request_header(reader);
  if (!decoded_header) return decoded_header.error();
  header = *decoded_header;
  Result<Request> request = Request::decode(reader, header.api_version);
  if (request && reader.remaining() != 0) return ErrorCode::kInvalidRequest;
  return request;
}

}  // namespace kgroups::protocol
