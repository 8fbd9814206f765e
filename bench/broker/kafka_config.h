// SPDX-License-Identifier: Apache-2.0
//
// make_kafka_config: builds a librdkafka configuration from name/value pairs,
// the same settings for every broker under test; a setting with an empty value
// is left at librdkafka's default. Throws std::runtime_error
// naming the property librdkafka rejected.
#pragma once

#include <librdkafka/rdkafka.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace kgroups::bench {

// The caller owns the result until it hands it to rd_kafka_new.
rd_kafka_conf_t* make_kafka_config(
    std::initializer_list<std::pair<const char*, std::string>> settings);

// rd_kafka_new that throws std::runtime_error with librdkafka's reason.
rd_kafka_t* make_kafka_client(rd_kafka_type_t type, rd_kafka_conf_t* config);

}  // namespace kgroups::bench
