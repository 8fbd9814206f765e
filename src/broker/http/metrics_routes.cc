// SPDX-License-Identifier: Apache-2.0
#include "broker/http/metrics_routes.h"

#include <map>
#include <string>
#include <string_view>

#include "broker/handlers/api_table.h"
#include "broker/http/group_view.h"

namespace kgroups::broker::http {
namespace {

// A label value with backslash, double quote and line feed escaped, as the format requires.
std::string label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void sample(std::string& out, std::string_view name, const std::string& labels,
            std::int64_t value) {
  out += name;
  if (!labels.empty()) out += "{" + labels + "}";
  out += ' ';
  out += std::to_string(value);
  out += '\n';
}

std::string render(Broker& broker) {
  const BrokerMetrics& metrics = broker.metrics();
  std::string out;
  family(out, "kgroupsd_requests_total", "counter", "Kafka requests received, by API.");
  for (const ApiEntry& api : api_table()) {
    sample(out, "kgroupsd_requests_total",
           "api=\"" + std::string(protocol::api_name(api.key)) + "\"",
           static_cast<std::int64_t>(metrics.requests(api.key)));
  }
  family(out, "kgroupsd_request_errors_total", "counter",
         "Error codes answered, by API and error (Produce and Fetch per partition, the group "
         "APIs per request, group and partition).");
  for (const auto& [key, count] : metrics.errors()) {
    sample(out, "kgroupsd_request_errors_total",
           "api=\"" + std::string(protocol::api_name(static_cast<protocol::ApiKey>(key.first))) +
               "\",error=\"" +
               std::string(protocol::error_name(static_cast<protocol::ErrorCode>(key.second))) +
               "\"",
           static_cast<std::int64_t>(count));
  }
  family(out, "kgroupsd_faults_injected_total", "counter",
         "Requests answered by an armed fault (POST /v1/faults), by API.");
  for (const auto& [key, count] : broker.faults().injected_by_api()) {
    sample(out, "kgroupsd_faults_injected_total",
           "api=\"" + std::string(protocol::api_name(key)) + "\"",
           static_cast<std::int64_t>(count));
  }
  family(out, "kgroupsd_bytes_received_total", "counter", "Bytes received from Kafka clients.");
  sample(out, "kgroupsd_bytes_received_total", "",
         static_cast<std::int64_t>(metrics.bytes_received()));
  family(out, "kgroupsd_bytes_sent_total", "counter", "Bytes sent to Kafka clients.");
  sample(out, "kgroupsd_bytes_sent_total", "", static_cast<std::int64_t>(metrics.bytes_sent()));
  family(out, "kgroupsd_connections", "gauge", "Kafka client connections open now.");
  sample(out, "kgroupsd_connections", "", metrics.connections());
  family(out, "kgroupsd_connections_accepted_total", "counter",
         "Kafka client connections accepted.");
  sample(out, "kgroupsd_connections_accepted_total", "",
         static_cast<std::int64_t>(metrics.connections_accepted()));

  family(out, "kgroupsd_topics", "gauge", "Topics.");
  sample(out, "kgroupsd_topics", "", static_cast<std::int64_t>(broker.cluster().topics().size()));
  family(out, "kgroupsd_partition_end_offset", "gauge",
         "Each partition's end offset (high watermark).");
  for (const auto& [name, topic] : broker.cluster().topics()) {
    for (std::size_t i = 0; i < topic->partitions.size(); ++i) {
      sample(out, "kgroupsd_partition_end_offset",
             "topic=\"" + label(name) + "\",partition=\"" + std::to_string(i) + "\"",
             topic->partitions[i].high_watermark());
    }
  }
  family(out, "kgroupsd_partition_log_start_offset", "gauge", "Each partition's log start offset.");
  for (const auto& [name, topic] : broker.cluster().topics()) {
    for (std::size_t i = 0; i < topic->partitions.size(); ++i) {
      sample(out, "kgroupsd_partition_log_start_offset",
             "topic=\"" + label(name) + "\",partition=\"" + std::to_string(i) + "\"",
             topic->partitions[i].log_start_offset());
    }
  }

  const std::vector<GroupView> groups = view_groups(broker);
  std::map<std::string, std::int64_t> by_state;
  for (const GroupView& group : groups) ++by_state[group.state];
  family(out, "kgroupsd_groups", "gauge", "Groups of both protocols, by state.");
  for (const auto& [state, count] : by_state) {
    sample(out, "kgroupsd_groups", "state=\"" + label(state) + "\"", count);
  }
  family(out, "kgroupsd_group_members", "gauge", "Members of each group.");
  for (const GroupView& group : groups) {
    sample(out, "kgroupsd_group_members", "group=\"" + label(group.group_id) + "\"",
           static_cast<std::int64_t>(group.members.size()));
  }
  family(out, "kgroupsd_group_lag", "gauge",
         "Records between each group's committed offset (or the log start, with none "
         "committed) and the end offset, by partition.");
  for (const GroupView& group : groups) {
    for (const GroupPartitionView& partition : group.offsets) {
      if (!partition.lag) continue;
      sample(out, "kgroupsd_group_lag",
             "group=\"" + label(group.group_id) + "\",topic=\"" + label(partition.topic) +
                 "\",partition=\"" + std::to_string(partition.partition) + "\"",
             *partition.lag);
    }
  }
  return out;
}

}  // namespace

void add_metrics_routes(HttpRouter& router, Broker& broker) {
  router.add("GET", "/metrics", [&broker](const HttpRequest&) {
    HttpResponse response;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    response.body = render(broker);
    return response;
  });
}

}  // namespace kgroups::broker::http
