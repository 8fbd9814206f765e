// SPDX-License-Identifier: Apache-2.0
#include "broker/http/metrics_routes.h"

#include <array>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "broker/handlers/api_table.h"
#include "broker/http/group_view.h"
#include "broker/storage/group_flush.h"
#include "broker/storage/replication_observer.h"

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

// The answer being built, cut at `max_bytes` in all: a sample that would pass it is left out,
// and so is every later one (a family's header still goes in, so the cut is visible).
// Samples go to `out`, or to a held family's own text (held_lag) that joins `out` later, so
// each family's samples stay together as the format requires.
struct MetricsText {
  std::string out;
  std::string held_lag;
  std::size_t max_bytes;
  bool cut = false;
};

void sample(MetricsText& text, std::string& into, std::string_view name, const std::string& labels,
            std::int64_t value) {
  if (text.cut) return;
  const std::string value_text = std::to_string(value);
  const std::size_t line_bytes =
      name.size() + (labels.empty() ? 0 : labels.size() + 2) + 1 + value_text.size() + 1;
  if (text.out.size() + text.held_lag.size() + line_bytes > text.max_bytes) {
    text.cut = true;
    return;
  }
  into += name;
  if (!labels.empty()) {
    into += '{';
    into += labels;
    into += '}';
  }
  into += ' ';
  into += value_text;
  into += '\n';
}

void sample(MetricsText& text, std::string_view name, const std::string& labels,
            std::int64_t value) {
  sample(text, text.out, name, labels, value);
}

// The cluster's elections and ISR changes since the routes were added, counted from the
// events as they are published (the event log keeps only the newest, so it cannot be
// counted afterwards).
struct ReplicationCounts {
  std::int64_t leader_elections = 0;
  std::int64_t unclean_leader_elections = 0;
  std::int64_t lost_records = 0;
  std::int64_t isr_shrinks = 0;
  std::int64_t isr_expands = 0;

  void count(const Event& event) {
    if (event.type == "leader_elected") {
      ++leader_elections;
      const nlohmann::json fields = nlohmann::json::parse(event.json, nullptr, false);
      if (fields.is_object() && fields.value("unclean", false)) ++unclean_leader_elections;
      if (fields.is_object()) lost_records += fields.value("lost_records", std::int64_t{0});
    } else if (event.type == "isr_shrunk") {
      ++isr_shrinks;
    } else if (event.type == "isr_expanded") {
      ++isr_expands;
    }
  }
};

std::string partition_labels(const std::string& topic, std::size_t partition) {
  return "topic=\"" + label(topic) + "\",partition=\"" + std::to_string(partition) + "\"";
}

// One family with one sample per partition of every topic, `value` read from its log.
template <typename Value>
void partition_family(MetricsText& text, const Cluster& cluster, std::string_view name,
                      std::string_view type, std::string_view help, Value value) {
  family(text.out, name, type, help);
  for (const auto& [topic_name, topic] : cluster.topics()) {
    for (std::size_t i = 0; i < topic->partitions.size(); ++i) {
      sample(text, name, partition_labels(topic_name, i), value(topic->partitions[i]));
    }
  }
}

// The brokers of --brokers N (N > 1), their partitions' replication, and the elections.
void render_cluster(MetricsText& text, Broker& broker, const ReplicationCounts& counts) {
  const ReplicationController& replication = broker.replication();
  std::string& out = text.out;
  family(out, "kgroupsd_broker_up", "gauge",
         "1 for a running broker, 0 for a stopped or isolated one (POST /v1/brokers/{id}/...).");
  for (std::int32_t node = 0; node < replication.brokers(); ++node) {
    sample(text, "kgroupsd_broker_up", "broker=\"" + std::to_string(node) + "\"",
           replication.state(node) == BrokerState::kRunning ? 1 : 0);
  }
  family(out, "kgroupsd_broker_state", "gauge",
         "Each broker's state: 1 on the sample of its state (running, stopped, isolated).");
  constexpr std::array kStates{BrokerState::kRunning, BrokerState::kStopped,
                               BrokerState::kIsolated};
  for (std::int32_t node = 0; node < replication.brokers(); ++node) {
    for (const BrokerState state : kStates) {
      sample(text, "kgroupsd_broker_state",
             "broker=\"" + std::to_string(node) + "\",state=\"" + broker_state_name(state) + "\"",
             replication.state(node) == state ? 1 : 0);
    }
  }
  family(out, "kgroupsd_controller", "gauge", "The controller's node id (-1: no broker runs).");
  sample(text, "kgroupsd_controller", "", replication.controller_id());
  family(out, "kgroupsd_leader_elections_total", "counter",
         "Leader elections (leader_elected events), clean and unclean.");
  sample(text, "kgroupsd_leader_elections_total", "", counts.leader_elections);
  family(out, "kgroupsd_unclean_leader_elections_total", "counter",
         "Leader elections that chose an out-of-sync replica.");
  sample(text, "kgroupsd_unclean_leader_elections_total", "", counts.unclean_leader_elections);
  family(out, "kgroupsd_election_lost_records_total", "counter",
         "Records elections cut from the log (acks=1 writes the new leader lacked).");
  sample(text, "kgroupsd_election_lost_records_total", "", counts.lost_records);
  family(out, "kgroupsd_isr_shrinks_total", "counter", "Replicas that left an ISR.");
  sample(text, "kgroupsd_isr_shrinks_total", "", counts.isr_shrinks);
  family(out, "kgroupsd_isr_expands_total", "counter", "Replicas that rejoined an ISR.");
  sample(text, "kgroupsd_isr_expands_total", "", counts.isr_expands);

  const Cluster& cluster = broker.cluster();
  partition_family(text, cluster, "kgroupsd_partition_leader", "gauge",
                   "Each partition's leader, a node id (-1: offline).",
                   [](const BatchLog& log) { return std::int64_t{log.replicas().leader()}; });
  partition_family(text, cluster, "kgroupsd_partition_replicas", "gauge",
                   "Each partition's replicas (its replication factor).", [](const BatchLog& log) {
                     return static_cast<std::int64_t>(log.replicas().replicas().size());
                   });
  partition_family(
      text, cluster, "kgroupsd_partition_isr_size", "gauge", "Each partition's in-sync replicas.",
      [](const BatchLog& log) { return static_cast<std::int64_t>(log.replicas().isr_size()); });
  partition_family(text, cluster, "kgroupsd_partition_high_watermark", "gauge",
                   "Each partition's high watermark (what consumers read up to; the same as "
                   "kgroupsd_partition_end_offset).",
                   [](const BatchLog& log) { return log.high_watermark(); });
  partition_family(text, cluster, "kgroupsd_partition_log_end_offset", "gauge",
                   "Each partition's log end offset on its leader (above the high watermark: "
                   "records not yet on every in-sync replica).",
                   [](const BatchLog& log) { return log.log_end_offset(); });
}

std::string share_partition_labels(const ShareGroupDescription& group,
                                   const SharePartitionDescription& partition) {
  return "group=\"" + label(group.group_id) + "\",topic=\"" + label(partition.topic_name) +
         "\",partition=\"" + std::to_string(partition.partition) + "\"";
}

// Share groups (KIP-932): how many, their members, each share-partition's records in flight
// by state and its totals. Each group is described once, and no more once the answer is cut.
void render_share_groups(MetricsText& text, Broker& broker) {
  std::vector<ShareGroupDescription> groups;
  for (const std::string& id : broker.groups().share().group_ids()) {
    if (text.cut) break;
    ShareGroupDescription group = broker.groups().describe_share_group(id);
    if (group.error == GroupError::kNone) groups.push_back(std::move(group));
  }
  family(text.out, "kgroupsd_share_groups", "gauge", "Share groups (KIP-932).");
  sample(text, "kgroupsd_share_groups", "", static_cast<std::int64_t>(groups.size()));
  family(text.out, "kgroupsd_share_group_members", "gauge", "Members of each share group.");
  for (const ShareGroupDescription& group : groups) {
    sample(text, "kgroupsd_share_group_members", "group=\"" + label(group.group_id) + "\"",
           static_cast<std::int64_t>(group.members.size()));
  }
  family(text.out, "kgroupsd_share_records_in_flight", "gauge",
         "Records between each share-partition's start and end offsets, by state (available, "
         "acquired, acknowledged, archived).");
  for (const ShareGroupDescription& group : groups) {
    for (const SharePartitionDescription& partition : group.partitions) {
      const std::string labels = share_partition_labels(group, partition);
      const share::InFlightCounts& in_flight = partition.in_flight;
      const std::array<std::pair<const char*, std::int64_t>, 4> states{
          {{"available", in_flight.available},
           {"acquired", in_flight.acquired},
           {"acknowledged", in_flight.acknowledged},
           {"archived", in_flight.archived}}};
      for (const auto& [state, count] : states) {
        sample(text, "kgroupsd_share_records_in_flight",
               labels + ",state=\"" + std::string(state) + "\"", count);
      }
    }
  }
  // One counter family per total, each with a sample per share-partition.
  struct Total {
    const char* name;
    const char* help;
    std::int64_t share::ShareTotals::*field;
  };
  static constexpr std::array<Total, 7> kTotals{{
      {"kgroupsd_share_deliveries_total", "Records delivered (acquired), redeliveries included.",
       &share::ShareTotals::deliveries},
      {"kgroupsd_share_redeliveries_total", "Records delivered again after a first delivery.",
       &share::ShareTotals::redeliveries},
      {"kgroupsd_share_accepted_total", "Records accepted by a member.",
       &share::ShareTotals::accepted},
      {"kgroupsd_share_released_total",
       "Records released: by the member, an expired lock or the member's departure.",
       &share::ShareTotals::released},
      {"kgroupsd_share_rejected_total", "Records rejected by a member.",
       &share::ShareTotals::rejected},
      {"kgroupsd_share_archived_by_limit_total",
       "Records archived at the delivery-count limit (share.delivery.count.limit).",
       &share::ShareTotals::archived_by_limit},
      {"kgroupsd_share_locks_expired_total", "Acquisition locks that ran out.",
       &share::ShareTotals::locks_expired},
  }};
  for (const Total& total : kTotals) {
    family(text.out, total.name, "counter", total.help);
    for (const ShareGroupDescription& group : groups) {
      for (const SharePartitionDescription& partition : group.partitions) {
        sample(text, total.name, share_partition_labels(group, partition),
               partition.totals.*total.field);
      }
    }
  }
}

std::string render(Broker& broker, const ReplicationCounts& counts) {
  const BrokerMetrics& metrics = broker.metrics();
  MetricsText text{.out = {},
                   .held_lag = {},
                   .max_bytes = static_cast<std::size_t>(broker.config().http_max_metrics_bytes)};
  std::string& out = text.out;
  family(out, "kgroupsd_requests_total", "counter", "Kafka requests received, by API.");
  for (const ApiEntry& api : api_table()) {
    sample(text, "kgroupsd_requests_total",
           "api=\"" + std::string(protocol::api_name(api.key)) + "\"",
           static_cast<std::int64_t>(metrics.requests(api.key)));
  }
  family(out, "kgroupsd_request_errors_total", "counter",
         "Error codes answered, by API and error (Produce and Fetch per partition, the group "
         "APIs per request, group and partition).");
  for (const auto& [key, count] : metrics.errors()) {
    sample(text, "kgroupsd_request_errors_total",
           "api=\"" + std::string(protocol::api_name(static_cast<protocol::ApiKey>(key.first))) +
               "\",error=\"" +
               std::string(protocol::error_name(static_cast<protocol::ErrorCode>(key.second))) +
               "\"",
           static_cast<std::int64_t>(count));
  }
  family(out, "kgroupsd_faults_injected_total", "counter",
         "Requests answered by an armed fault (POST /v1/faults), by API.");
  for (const auto& [key, count] : broker.faults().injected_by_api()) {
    sample(text, "kgroupsd_faults_injected_total",
           "api=\"" + std::string(protocol::api_name(key)) + "\"",
           static_cast<std::int64_t>(count));
  }
  family(out, "kgroupsd_bytes_received_total", "counter", "Bytes received from Kafka clients.");
  sample(text, "kgroupsd_bytes_received_total", "",
         static_cast<std::int64_t>(metrics.bytes_received()));
  family(out, "kgroupsd_bytes_sent_total", "counter", "Bytes sent to Kafka clients.");
  sample(text, "kgroupsd_bytes_sent_total", "", static_cast<std::int64_t>(metrics.bytes_sent()));
  family(out, "kgroupsd_connections", "gauge", "Kafka client connections open now.");
  sample(text, "kgroupsd_connections", "", metrics.connections());
  family(out, "kgroupsd_connections_accepted_total", "counter",
         "Kafka client connections accepted.");
  sample(text, "kgroupsd_connections_accepted_total", "",
         static_cast<std::int64_t>(metrics.connections_accepted()));

  if (broker.log_directory() != nullptr) {
    const GroupFlush& flushes = broker.group_flush();
    family(out, "kgroupsd_log_group_flushes_total", "counter",
           "Group flushes run (--log-dirs, flush.messages): each flushes every partition "
           "that reached flush.messages since the previous one.");
    sample(text, "kgroupsd_log_group_flushes_total", "",
           static_cast<std::int64_t>(flushes.rounds()));
    family(out, "kgroupsd_log_group_flush_partitions_total", "counter",
           "Partition flushes (one fdatasync of each unflushed segment) the group flushes did.");
    sample(text, "kgroupsd_log_group_flush_partitions_total", "",
           static_cast<std::int64_t>(flushes.partitions_flushed()));
    family(out, "kgroupsd_log_group_flush_waits_total", "counter",
           "Produce requests answered after waiting for a group flush.");
    sample(text, "kgroupsd_log_group_flush_waits_total", "",
           static_cast<std::int64_t>(flushes.waits()));
  }
  family(out, "kgroupsd_topics", "gauge", "Topics.");
  sample(text, "kgroupsd_topics", "", static_cast<std::int64_t>(broker.cluster().topics().size()));
  partition_family(text, broker.cluster(), "kgroupsd_partition_end_offset", "gauge",
                   "Each partition's end offset (high watermark).",
                   [](const BatchLog& log) { return log.high_watermark(); });
  partition_family(text, broker.cluster(), "kgroupsd_partition_log_start_offset", "gauge",
                   "Each partition's log start offset.",
                   [](const BatchLog& log) { return log.log_start_offset(); });
  if (broker.replication().brokers() > 1) render_cluster(text, broker, counts);

  // Groups are viewed one at a time, and no more once the answer is cut: the work and the
  // memory stay within what the cut allows, however many groups and offsets there are.
  const std::vector<CoordinatorService::Listing> listings = broker.groups().list_groups();
  std::map<std::string, std::int64_t> by_state;
  for (const CoordinatorService::Listing& listing : listings) ++by_state[listing.group.state];
  family(out, "kgroupsd_groups", "gauge", "Groups of every type, by state.");
  for (const auto& [state, count] : by_state) {
    sample(text, "kgroupsd_groups", "state=\"" + label(state) + "\"", count);
  }
  family(out, "kgroupsd_group_members", "gauge", "Members of each group.");
  for (const CoordinatorService::Listing& listing : listings) {
    if (text.cut) break;
    const std::optional<GroupView> group = view_group(broker, listing.group.group_id);
    if (!group) continue;
    sample(text, "kgroupsd_group_members", "group=\"" + label(group->group_id) + "\"",
           static_cast<std::int64_t>(group->members.size()));
    for (const GroupPartitionView& partition : group->offsets) {
      if (!partition.lag) continue;
      sample(text, text.held_lag, "kgroupsd_group_lag",
             "group=\"" + label(group->group_id) + "\",topic=\"" + label(partition.topic) +
                 "\",partition=\"" + std::to_string(partition.partition) + "\"",
             *partition.lag);
    }
  }
  family(out, "kgroupsd_group_lag", "gauge",
         "Records between each group's committed offset (or the log start, with none "
         "committed) and the end offset, by partition.");
  out += text.held_lag;
  text.held_lag = std::string();
  render_share_groups(text, broker);
  if (text.cut) {
    out += "# kgroupsd: the answer reached --http-max-metrics-bytes (" +
           std::to_string(text.max_bytes) +
           " bytes); the samples after this point are left out. Raise the flag, or read "
           "groups one at a time from GET /v1/groups/{id}.\n";
  }
  return std::move(text.out);
}

}  // namespace

void add_metrics_routes(HttpRouter& router, Broker& broker) {
  auto counts = std::make_shared<ReplicationCounts>();
  if (broker.replication().brokers() > 1) {
    broker.events().subscribe([counts](const Event& event) {
      counts->count(event);
      return true;
    });
  }
  router.add("GET", "/metrics", [&broker, counts](const HttpRequest&) {
    HttpResponse response;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    response.body = render(broker, *counts);
    return response;
  });
}

}  // namespace kgroups::broker::http
