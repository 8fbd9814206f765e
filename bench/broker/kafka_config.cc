// SPDX-License-Identifier: Apache-2.0
//
// librdkafka configuration helpers of kgroups_broker_bench.
#include "kafka_config.h"

#include <stdexcept>

namespace kgroups::bench {

rd_kafka_conf_t* make_kafka_config(
    std::initializer_list<std::pair<const char*, std::string>> settings) {
  rd_kafka_conf_t* config = rd_kafka_conf_new();
  char error[512];
  for (const auto& [name, value] : settings) {
    if (value.empty()) continue;
    if (rd_kafka_conf_set(config, name, value.c_str(), error, sizeof error) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(config);
      throw std::runtime_error(std::string("librdkafka rejected ") + name + "=" + value + ": " +
                               error);
    }
  }
  return config;
}

rd_kafka_t* make_kafka_client(rd_kafka_type_t type, rd_kafka_conf_t* config) {
  char error[512];
  rd_kafka_t* client = rd_kafka_new(type, config, error, sizeof error);
  if (client == nullptr) {
    rd_kafka_conf_destroy(config);
    throw std::runtime_error(std::string("rd_kafka_new failed: ") + error);
  }
  return client;
}

}  // namespace kgroups::bench
