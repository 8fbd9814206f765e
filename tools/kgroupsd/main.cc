// SPDX-License-Identifier: Apache-2.0
//
// kgroupsd: an in-memory broker that speaks Kafka's wire protocol. Parses the command line,
// binds the listener (and, with --http, the control endpoint), prints one ready line on stdout
// ("kgroupsd listening on HOST:PORT", with --http "kgroupsd listening on HOST:PORT, http on
// HOST:HTTPPORT"), then runs the broker on this thread until SIGINT or SIGTERM. Logs go to
// stderr.
#include <CLI/CLI.hpp>
#include <asio/io_context.hpp>
#include <asio/signal_set.hpp>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "broker/config/broker_config.h"
#include "broker/config/limit_table.h"
#include "broker/handlers/api_table.h"
#include "broker/http/http_router.h"
#include "broker/http/http_routes.h"
#include "broker/http/http_server.h"
#include "broker/http/route_catalog.h"
#include "broker/net/open_file_limit.h"
#include "broker/net/tcp_server.h"
#include "broker/net/tls_context.h"
#include "broker/node/broker.h"
#include "broker/runtime/logger.h"
#include "security_options.h"

namespace {

using kgroups::broker::BrokerConfig;

// Splits "HOST:PORT" (the host may be a bracketed IPv6 address). Throws CLI::ValidationError.
void parse_address(const std::string& text, const std::string& option, std::string& host,
                   std::uint16_t& port) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw CLI::ValidationError(option,
                               "expected HOST:PORT, e.g. 127.0.0.1:9092, got \"" + text + "\"");
  }
  host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  unsigned value = 0;
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || value > 65535) {
    throw CLI::ValidationError(option,
                               "port must be a number from 0 to 65535, got \"" + text + "\"");
  }
  port = static_cast<std::uint16_t>(value);
}

// One listening address per broker, from --listen's comma-separated list: one address for
// every broker (port 0: each gets a free port; another port: brokers take it and the ports
// after it, in node-id order), or exactly one per broker. Throws CLI::ValidationError.
std::vector<std::pair<std::string, std::uint16_t>> parse_addresses(const std::string& text,
                                                                   const std::string& option,
                                                                   std::int32_t brokers) {
  std::vector<std::pair<std::string, std::uint16_t>> addresses;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    std::pair<std::string, std::uint16_t> address;
    parse_address(text.substr(begin, comma - begin), option, address.first, address.second);
    addresses.push_back(std::move(address));
    begin = comma + 1;
  }
  if (addresses.size() == 1 && brokers > 1) {
    const auto [host, port] = addresses.front();
    if (port != 0 && port + brokers - 1 > 65535) {
      throw CLI::ValidationError(option, "ports " + std::to_string(port) +
                                             " and up have no room for " + std::to_string(brokers) +
                                             " brokers");
    }
    for (std::int32_t node = 1; node < brokers; ++node) {
      addresses.emplace_back(host, port == 0 ? 0 : static_cast<std::uint16_t>(port + node));
    }
  }
  if (std::cmp_not_equal(addresses.size(), brokers)) {
    throw CLI::ValidationError(option, "gives " + std::to_string(addresses.size()) +
                                           " addresses for --brokers " + std::to_string(brokers) +
                                           ": give one (each broker then takes the next port, or "
                                           "a free one with port 0) or one per broker, e.g. "
                                           "127.0.0.1:9092,127.0.0.1:9093,127.0.0.1:9094");
  }
  return addresses;
}

// The listeners of every broker (servers[node][listener]) and the ready line's addresses: the
// first listener's, one per broker, then ", PROTOCOL on ..." for each other listener.
struct ListenerServers {
  std::vector<std::vector<std::unique_ptr<kgroups::broker::TcpServer>>> servers;
  std::optional<asio::ssl::context> tls;
  std::string bound;
};

ListenerServers start_listeners(
    asio::io_context& io, kgroups::broker::Broker& broker,
    const std::vector<std::pair<std::string, std::uint16_t>>& advertised_addresses,
    const kgroups::kgroupsd::SecurityOptions& security_options) {
  using kgroups::broker::SecurityProtocol;
  const BrokerConfig& config = broker.config();
  ListenerServers result;
  bool tls = false;
  bool secured = false;
  for (const auto& listener : config.listeners.front()) {
    tls = tls || kgroups::broker::uses_tls(listener.protocol);
    secured = secured || listener.protocol != SecurityProtocol::kPlaintext;
  }
  if (tls) result.tls.emplace(kgroups::broker::make_tls_server_context(config.security));
  auto unauthenticated =
      secured ? std::make_shared<kgroups::broker::UnauthenticatedConnections>(
                    kgroups::broker::UnauthenticatedConnections{
                        .count = 0,
                        .max = static_cast<std::size_t>(config.max_unauthenticated_connections)})
              : nullptr;
  std::shared_ptr<kgroups::broker::ConnectionCounter> counter;
  const std::size_t listener_count = config.listeners.front().size();
  std::vector<std::string> bound(listener_count);
  for (std::size_t node = 0; node < config.listeners.size(); ++node) {
    auto& node_servers = result.servers.emplace_back();
    for (std::size_t index = 0; index < listener_count; ++index) {
      const kgroups::broker::ListenerAddress& address = config.listeners[node][index];
      const bool checked = address.protocol != SecurityProtocol::kPlaintext;
      node_servers.push_back(std::make_unique<kgroups::broker::TcpServer>(
          io, broker, address.host, address.port,
          kgroups::broker::ConnectionListener{
              .node_id = static_cast<std::int32_t>(node),
              .index = index,
              .protocol = address.protocol,
              .tls = kgroups::broker::uses_tls(address.protocol) ? &*result.tls : nullptr,
              .unauthenticated = checked ? unauthenticated : nullptr},
          counter));
      const kgroups::broker::TcpServer& server = *node_servers.back();
      if (counter == nullptr) counter = server.connection_counter();
      if (node > 0) bound[index] += ",";
      bound[index] += server.host() + ":" + std::to_string(server.port());
      auto [host, port] =
          kgroups::kgroupsd::advertised_listener(security_options, config, node, index);
      if (index == 0 && node < advertised_addresses.size()) {
        std::tie(host, port) = advertised_addresses[node];
      }
      broker.set_advertised_address(static_cast<std::int32_t>(node),
                                    host.empty() ? server.host() : host,
                                    port != 0 ? port : server.port(), index);
    }
  }
  result.bound = bound.front();
  for (std::size_t index = 1; index < listener_count; ++index) {
    result.bound += ", " +
                    std::string(kgroups::broker::security_protocol_name(
                        config.listeners.front()[index].protocol)) +
                    " on " + bound[index];
  }
  return result;
}

kgroups::broker::SeedTopic parse_seed(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  kgroups::broker::SeedTopic seed;
  int partitions = 0;
  if (colon != std::string::npos) {
    const char* first = text.data() + colon + 1;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, partitions);
    if (error == std::errc() && end == last && partitions >= 1) {
      seed.name = text.substr(0, colon);
      seed.partitions = partitions;
      return seed;
    }
  }
  throw CLI::ValidationError(
      "--topic",
      "expected NAME:PARTITIONS with PARTITIONS >= 1, e.g. orders:6, got \"" + text + "\"");
}

// Registers one option per row of the limit table; byte sizes also take units (512MiB, 2G).
void add_limit_options(CLI::App& app, BrokerConfig& config) {
  for (const kgroups::broker::LimitEntry& limit : kgroups::broker::limit_table()) {
    std::string help(limit.bounds);
    help += " (default ";
    help += limit.default_text;
    help += "; Kafka: ";
    help += limit.kafka;
    help += ")";
    CLI::Option* option = std::visit(
        [&](auto member) { return app.add_option(std::string(limit.flag), config.*member, help); },
        limit.field);
    if (limit.unit == kgroups::broker::LimitUnit::kBytes) {
      option->transform(CLI::AsSizeValue(false));
    }
    option->check(CLI::Range(limit.min_value, limit.max_value));
  }
}

// Parses the command line and runs the broker until SIGINT or SIGTERM; returns the exit code.
int run_kgroupsd(int argc, char** argv) {
  // A reader of stdout or stderr that goes away must not kill the broker on its next log line.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"kgroupsd: an in-memory broker that speaks the Kafka protocol", "kgroupsd"};
  std::string listen = "127.0.0.1:9092";
  std::string advertise;
  std::vector<std::pair<std::string, std::uint16_t>> listen_addresses;
  std::vector<std::pair<std::string, std::uint16_t>> advertised_addresses;
  std::string http;
  std::string http_host;
  std::uint16_t http_port = 0;
  std::vector<std::string> http_allowed_hosts;
  std::vector<std::string> topics;
  BrokerConfig config;
  bool print_protocol_table = false;
  bool print_limits_table = false;
  bool print_http_routes_table = false;
  bool verbose = false;
  kgroups::kgroupsd::SecurityOptions security_options;
  CLI::Option* listen_option =
      app.add_option("--listen", listen,
                     "Address to listen on, HOST:PORT; port 0 picks a free port. With --brokers N: "
                     "one address per broker, comma-separated in node-id order, or one address "
                     "whose port the brokers count up from (port 0: a free port each)")
          ->capture_default_str();
  app.add_option("--advertise", advertise,
                 "Address given to clients in Metadata, HOST:PORT (default: the listening "
                 "address); with --brokers N, one per broker as --listen takes them");
  app.add_option("--brokers", config.brokers,
                 "Brokers in this process, node ids 0..N-1, each with its own listener; "
                 "partitions are replicated among them (docs/CLUSTER.md)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--default-replication-factor", config.default_replication_factor,
                 "Replicas of topics created without a replication factor "
                 "(default.replication.factor; at most --brokers)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--min-insync-replicas", config.min_insync_replicas,
                 "In-sync replicas an acks=all write needs (min.insync.replicas; topics may "
                 "set their own)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--replica-lag-time-max-ms", config.replica_lag_time_max_ms,
                 "A follower that has not caught up for this long leaves the ISR "
                 "(replica.lag.time.max.ms; read on the --manual-clock when given)")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400000));
  app.add_flag("--unclean-leader-election-enable", config.unclean_leader_election,
               "With no live in-sync replica, elect an out-of-sync one, losing what it lacks "
               "(unclean.leader.election.enable; topics may set their own)");
  app.add_option("--http", http,
                 "Serve the HTTP control and inspection endpoint (docs/HTTP-API.md) on "
                 "HOST:PORT (port 0 picks a free port; PORT alone means 127.0.0.1:PORT); off "
                 "when not given");
  app.add_option("--http-allow-host", http_allowed_hosts,
                 "A further name or address clients may use to reach the HTTP endpoint "
                 "(repeatable). Requests whose Host names anything but a loopback name, the "
                 "--http address or one of these are refused with 403 (DNS rebinding)");
  app.add_flag("--manual-clock", config.manual_clock,
               "Group coordinators read a clock that moves only by POST /v1/clock/advance "
               "(session and rebalance timeouts never fire by themselves; for tests). The "
               "initial rebalance delay is then 0 unless --initial-rebalance-delay-ms is given");
  app.add_option("--topic", topics, "Create a topic at start-up, NAME:PARTITIONS (repeatable)");
  app.add_option("--log-dirs", config.log_dirs,
                 "Keep every partition's log on disk in this folder, in Kafka's layout, and "
                 "recover it at the next start (Kafka's log.dirs; one folder). Without it, "
                 "everything lives in memory (docs/STORAGE.md)");
  app.add_option("--default-partitions", config.default_partitions,
                 "Partitions of topics created on first use")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--offsets-topic-num-partitions", config.offsets_topic_num_partitions,
                 "Partitions of the internal topic __consumer_offsets, created on a group's "
                 "first use (Kafka's offsets.topic.num.partitions)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--offsets-topic-replication-factor", config.offsets_topic_replication_factor,
                 "Replication factor asked for __consumer_offsets (Kafka's "
                 "offsets.topic.replication.factor; one broker keeps one replica)")
      ->capture_default_str()
      ->check(CLI::Range(1, 32767));
  app.add_option("--transaction-state-log-num-partitions",
                 config.transaction_state_log_num_partitions,
                 "Partitions of the internal topic __transaction_state, created on a "
                 "transactional id's first use (Kafka's transaction.state.log.num.partitions)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--transaction-state-log-replication-factor",
                 config.transaction_state_log_replication_factor,
                 "Replication factor asked for __transaction_state (Kafka's "
                 "transaction.state.log.replication.factor; at most --brokers)")
      ->capture_default_str()
      ->check(CLI::Range(1, 32767));
  app.add_flag(
      "--no-auto-create", [&config](std::int64_t) { config.auto_create_topics = false; },
      "Do not create unknown topics on Metadata or Produce");
  CLI::Option* initial_delay = app.add_option(
      "--initial-rebalance-delay-ms", config.initial_rebalance_delay_ms,
      "How long a new group's first rebalance waits for more members; each member that\n"
      "joins meanwhile extends it once more (Kafka: 3000; 0 with --manual-clock)");
  initial_delay->capture_default_str()->check(CLI::Range(0, 300000));
  app.add_option("--group-min-session-timeout-ms", config.group_min_session_timeout_ms,
                 "Smallest session timeout JoinGroup accepts")
      ->capture_default_str()
      ->check(CLI::Range(1, 1800000));
  app.add_option("--group-consumer-session-timeout-ms", config.consumer_group_session_timeout_ms,
                 "Session timeout of consumer-group protocol (KIP-848) members")
      ->capture_default_str()
      ->check(CLI::Range(1, 1800000));
  app.add_option("--group-consumer-heartbeat-interval-ms",
                 config.consumer_group_heartbeat_interval_ms,
                 "Heartbeat interval given to consumer-group protocol (KIP-848) members")
      ->capture_default_str()
      ->check(CLI::Range(1, 1800000));
  app.add_option("--group-share-session-timeout-ms", config.share_group_session_timeout_ms,
                 "Session timeout of share-group (KIP-932) members")
      ->capture_default_str()
      ->check(CLI::Range(1, 1800000));
  app.add_option("--group-share-heartbeat-interval-ms", config.share_group_heartbeat_interval_ms,
                 "Heartbeat interval given to share-group members")
      ->capture_default_str()
      ->check(CLI::Range(1, 1800000));
  app.add_option("--group-share-record-lock-duration-ms",
                 config.share_group_record_lock_duration_ms,
                 "How long a record a share-group member acquired stays locked to it")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600000));
  app.add_option("--group-share-delivery-count-limit", config.share_group_delivery_count_limit,
                 "Deliveries of a share group's record before it is archived")
      ->capture_default_str()
      ->check(CLI::Range(2, 10));
  app.add_option("--group-share-partition-max-record-locks",
                 config.share_group_partition_max_record_locks,
                 "Records in flight per share-partition (between its start and end offsets)")
      ->capture_default_str()
      ->check(CLI::Range(100, 10000));
  app.add_option("--group-share-max-size", config.share_group_max_size,
                 "Members of one share group at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  add_limit_options(app, config);
  kgroups::kgroupsd::add_security_options(app, config, security_options);
  app.set_version_flag("--version", "kgroupsd " KGROUPS_VERSION);
  app.add_flag("--verbose", verbose, "Also log every request (debug level)");
  app.add_flag("--print-protocol-table", print_protocol_table,
               "Print the served APIs and versions as Markdown (docs/PROTOCOL.md) and exit");
  app.add_flag("--print-limits-table", print_limits_table,
               "Print the limits with their defaults as Markdown (docs/LIMITS.md) and exit");
  app.add_flag("--print-http-routes-table", print_http_routes_table,
               "Print the HTTP endpoint's routes as Markdown (docs/HTTP-API.md) and exit");

  try {
    app.parse(argc, argv);
    listen_addresses = parse_addresses(listen, "--listen", config.brokers);
    kgroups::kgroupsd::resolve_listeners(security_options, listen_addresses,
                                         listen_option->count() > 0, config);
    if (!advertise.empty()) {
      advertised_addresses = parse_addresses(advertise, "--advertise", config.brokers);
      config.advertised_host = advertised_addresses.front().first;
      config.advertised_port = advertised_addresses.front().second;
    }
    if (!http.empty()) {
      if (http.find(':') == std::string::npos) http = "127.0.0.1:" + http;
      parse_address(http, "--http", http_host, http_port);
    }
    for (const std::string& topic : topics) config.seed_topics.push_back(parse_seed(topic));
    // On a manual clock a delay would hold every new group until the test advances it.
    if (config.manual_clock && initial_delay->count() == 0) config.initial_rebalance_delay_ms = 0;
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (print_protocol_table) {
    std::cout << kgroups::broker::api_table_markdown();
    return 0;
  }
  if (print_http_routes_table) {
    std::cout << kgroups::broker::http::route_catalog_markdown();
    return 0;
  }
  if (print_limits_table) {
    std::cout << kgroups::broker::limit_table_markdown();
    return 0;
  }
  if (verbose) kgroups::broker::set_log_level(kgroups::broker::LogLevel::kDebug);
  // Make room for requests larger than a batch: one batch per partition per request.
  if (config.max_frame_bytes < config.max_message_bytes + 1024 * 1024) {
    config.max_frame_bytes = config.max_message_bytes + 1024 * 1024;
  }

  try {
    // Every connection is a file descriptor: allow as many as the hard limit does (TcpServer
    // caps connections below the result).
    kgroups::broker::raise_open_file_limit();
    // The broker outlives the io_context: destroying the io_context destroys suspended
    // coroutines, whose clean-up still touches broker state.
    kgroups::broker::Broker broker(config);
    asio::io_context io(1);
    // Every listener of every broker, sharing the connection caps.
    ListenerServers listeners = start_listeners(io, broker, advertised_addresses, security_options);
    std::string bound = listeners.bound;
    auto& servers = listeners.servers;
    // A stopped broker's listeners refuse and its connections close; started, they listen
    // again.
    broker.replication().add_state_listener(
        [&servers](std::int32_t node, kgroups::broker::BrokerState state) {
          for (const auto& server : servers.at(static_cast<std::size_t>(node))) {
            if (state == kgroups::broker::BrokerState::kStopped) {
              server->stop_and_close_connections();
              continue;
            }
            try {
              server->listen_again();
            } catch (const std::exception& e) {
              kgroups::broker::log_error("broker " + std::to_string(node) + ": " + e.what());
            }
          }
        });
    // The control endpoint, when asked for: its routes and server live as long as the broker.
    kgroups::broker::http::HttpRouter http_router;
    std::optional<kgroups::broker::http::HttpServer> http_server;
    if (!http.empty()) {
      kgroups::broker::http::build_http_routes(http_router, broker, io.get_executor());
      kgroups::broker::http::HttpServerLimits limits;
      limits.max_connections = static_cast<std::size_t>(config.http_max_connections);
      limits.max_connections_per_address =
          static_cast<std::size_t>(config.http_max_connections_per_ip);
      limits.parser.max_head_bytes = static_cast<std::size_t>(config.http_max_head_bytes);
      limits.parser.max_body_bytes = static_cast<std::size_t>(config.http_max_body_bytes);
      limits.idle_timeout = std::chrono::milliseconds(config.http_idle_timeout_ms);
      limits.max_stream_queue_bytes = static_cast<std::size_t>(config.http_max_stream_queue_bytes);
      http_server.emplace(io, http_router, limits, http_host, http_port, http_allowed_hosts,
                          &broker.response_memory());
      if (!http_server->loopback() && broker.access().authorizer_enabled() &&
          !security_options.http_remote_admin) {
        throw std::invalid_argument(
            "--http " + http +
            " is reachable from other machines while the authorizer is on: "
            "the HTTP endpoint has no authentication and can create users and ACLs, so it "
            "would bypass them. Serve it on 127.0.0.1, or give --http-allow-remote-admin if "
            "every machine that can reach it is trusted (docs/SECURITY.md)");
      }
      bound += ", http on " + http_server->host() + ":" + std::to_string(http_server->port());
    }

    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const std::error_code& error, int signal_number) {
      if (error) return;
      kgroups::broker::log_info("received signal " + std::to_string(signal_number) +
                                ", shutting down");
      for (const auto& node : servers) {
        for (const auto& server : node) server->stop();
      }
      if (http_server) http_server->stop();
      io.stop();
    });
    for (const auto& node : servers) {
      for (const auto& server : node) server->start();
    }
    if (http_server) http_server->start();
    broker.start(io.get_executor());
    if (config.manual_clock) {
      kgroups::broker::log_info(
          "group coordinators follow the manual clock: timeouts fire only on POST "
          "/v1/clock/advance");
    }
    kgroups::broker::log_info(broker.memory_plan().describe());
    std::string advertising;
    for (std::int32_t node = 0; node < config.brokers; ++node) {
      const auto& address = broker.node_address(node);
      advertising += (node == 0 ? "" : ", ") + address.host + ":" + std::to_string(address.port);
      if (config.brokers > 1) advertising += " (broker " + std::to_string(node) + ")";
    }
    kgroups::broker::log_info(
        "advertising " + advertising + ", " + std::to_string(broker.cluster().topics().size()) +
        " seed topic(s), default " + std::to_string(config.default_partitions) + " partitions");
    std::printf("kgroupsd listening on %s\n", bound.c_str());
    std::fflush(stdout);
    if (http_server) {
      const std::string& host = http_server->host();
      const std::string url_host = host.find(':') == std::string::npos ? host : "[" + host + "]";
      kgroups::broker::log_info("console: http://" + url_host + ":" +
                                std::to_string(http_server->port()) + "/ (open it in a browser)");
      if (!http_server->loopback()) {
        kgroups::broker::log_warn(
            "the HTTP endpoint on " + url_host + ":" + std::to_string(http_server->port()) +
            " is reachable from other machines, and it has no authentication: whoever reaches "
            "it can arm faults, start consumers and read every group and topic. Serve it on "
            "127.0.0.1 unless that is what you want (requests must still name a loopback "
            "address, this address or an --http-allow-host name in their Host header)");
      }
    }
    io.run();
    broker.close_log_directory();
    kgroups::broker::log_info("stopped");
    // Exit without destroying the connections and the broker: freeing gigabytes of stored
    // records and queued responses piece by piece takes longer than the kernel needs to
    // reclaim the whole process (3 GiB stored: 0.56 s against 0.23 s).
    std::fflush(stdout);
    std::_Exit(0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kgroupsd: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_kgroupsd(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kgroupsd: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "kgroupsd: unknown error\n");
  }
  return 1;
}
