// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/checkpoint_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace kgroups::broker {
namespace {

using Properties = std::vector<std::pair<std::string, std::string>>;

TEST(LogFormatCheckpointFiles, OffsetCheckpointsAreKafkasTextAndReadBack) {
  const std::vector<TopicPartitionOffset> offsets{{"orders", 0, 42}, {"__consumer_offsets", 7, 3}};
  const std::string text = format_offset_checkpoint(offsets);
  EXPECT_EQ(text, "0\n2\norders 0 42\n__consumer_offsets 7 3\n");
  std::string error;
  const auto parsed = parse_offset_checkpoint(text, error);
  ASSERT_TRUE(parsed) << error;
  ASSERT_EQ(parsed->size(), 2U);
  EXPECT_EQ((*parsed)[1].topic, "__consumer_offsets");
  EXPECT_EQ((*parsed)[1].partition, 7);
  EXPECT_EQ((*parsed)[1].offset, 3);
  EXPECT_EQ(format_offset_checkpoint({}), "0\n0\n");
  // Kafka reads an empty file, or one with only the version, as no entries.
  EXPECT_TRUE(parse_offset_checkpoint("", error)->empty());
  EXPECT_TRUE(parse_offset_checkpoint("0\n", error)->empty());
  EXPECT_TRUE(parse_offset_checkpoint("0\r\n1\r\nt 1 2\r\n", error));
}

TEST(LogFormatCheckpointFiles, AMalformedCheckpointSaysWhichLine) {
  std::string error;
  EXPECT_FALSE(parse_offset_checkpoint("1\n0\n", error));
  EXPECT_NE(error.find("line 1"), std::string::npos) << error;
  EXPECT_FALSE(parse_offset_checkpoint("0\nx\n", error));
  EXPECT_NE(error.find("line 2"), std::string::npos) << error;
  EXPECT_FALSE(parse_offset_checkpoint("0\n1\norders x 42\n", error));
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_FALSE(parse_offset_checkpoint("0\n1\norders 0\n", error));
  EXPECT_FALSE(parse_offset_checkpoint("0\n1\n orders 0 1\n", error));
  EXPECT_FALSE(parse_offset_checkpoint("0\n2\norders 0 1\n", error));
  EXPECT_NE(error.find("counts 2 entries but 1 follow"), std::string::npos) << error;
  EXPECT_FALSE(parse_offset_checkpoint("0\n1\norders 0 1\norders 1 1\n", error));
}

TEST(LogFormatCheckpointFiles, LeaderEpochCheckpointsRoundTrip) {
  const std::vector<EpochStart> epochs{{0, 0}, {3, 120}, {4, 9000000000}};
  const std::string text = format_leader_epoch_checkpoint(epochs);
  EXPECT_EQ(text, "0\n3\n0 0\n3 120\n4 9000000000\n");
  std::string error;
  const auto parsed = parse_leader_epoch_checkpoint(text, error);
  ASSERT_TRUE(parsed) << error;
  ASSERT_EQ(parsed->size(), 3U);
  EXPECT_EQ((*parsed)[2].epoch, 4);
  EXPECT_EQ((*parsed)[2].start_offset, 9000000000);
  EXPECT_FALSE(parse_leader_epoch_checkpoint("0\n1\n3\n", error));
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_FALSE(parse_leader_epoch_checkpoint("0\n1\n3 4 5\n", error));
}

TEST(LogFormatCheckpointFiles, PropertiesRoundTripInOrderAndReadJavasSyntax) {
  const Properties properties{{"version", "1"},
                              {"cluster.id", "Ab3_x-9Qr2mT7uV1wXyZ0a"},
                              {"node.id", "0"},
                              {"odd key", " =:#!\\\tvalue é"}};
  const std::string text = format_properties(properties, "written by kgroupsd");
  EXPECT_EQ(text.substr(0, 21), "#written by kgroupsd\n");
  EXPECT_NE(text.find("cluster.id=Ab3_x-9Qr2mT7uV1wXyZ0a\n"), std::string::npos) << text;
  EXPECT_NE(text.find("odd\\ key=\\ \\=\\:\\#\\!\\\\\\tvalue \\u00E9\n"), std::string::npos)
      << text;
  std::string error;
  const auto parsed = parse_properties(text, error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, properties);

  const auto java = parse_properties(
      "# comment\n! also a comment\n\n  node.id = 3\nversion:1\ncluster.id 42\n"
      "long=a\\\n    b\nempty=\n",
      error);
  ASSERT_TRUE(java) << error;
  EXPECT_EQ(*java, (Properties{{"node.id", "3"},
                               {"version", "1"},
                               {"cluster.id", "42"},
                               {"long", "ab"},
                               {"empty", ""}}));
  EXPECT_FALSE(parse_properties("bad=\\uZZZZ\n", error));
}

TEST(LogFormatCheckpointFiles, PartitionMetadataHoldsTheTopicIdAsKafkaPrintsIt) {
  // Kafka's Uuid.toString() of 0x00010203-0405-0607-0809-0a0b0c0d0e0f.
  protocol::Uuid id{};
  for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(format_uuid(id), "AAECAwQFBgcICQoLDA0ODw");
  EXPECT_EQ(parse_uuid("AAECAwQFBgcICQoLDA0ODw"), id);
  const std::string text = format_partition_metadata(id);
  EXPECT_EQ(text, "version: 0\ntopic_id: AAECAwQFBgcICQoLDA0ODw\n");
  std::string error;
  EXPECT_EQ(parse_partition_metadata(text, error), id);
  EXPECT_FALSE(parse_uuid("AAECAwQFBgcICQoLDA0OD"));
  EXPECT_FALSE(parse_uuid("AAECAwQFBgcICQoLDA0OD!"));
  EXPECT_FALSE(parse_partition_metadata("version: 0\ntopic_id: !!\n", error));
  EXPECT_FALSE(parse_partition_metadata("version 0\ntopic_id: AAECAwQFBgcICQoLDA0ODw\n", error));
  EXPECT_FALSE(parse_partition_metadata("version: 0\n", error));
  EXPECT_FALSE(parse_partition_metadata("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n", error));
  EXPECT_NE(error.find("zero"), std::string::npos) << error;
}

class LogFormatFiles : public testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("kgroups-log-format-" + std::to_string(::getpid()) + "-" +
               testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  std::filesystem::path folder_;
};

TEST_F(LogFormatFiles, AnAtomicWriteReplacesTheFileAndLeavesNoTemporary) {
  const auto file = folder_ / "recovery-point-offset-checkpoint";
  EXPECT_EQ(read_small_file(file), std::nullopt);
  write_file_atomically(file, "0\n0\n");
  EXPECT_EQ(read_small_file(file), "0\n0\n");
  write_file_atomically(file, "0\n1\nt 0 5\n");
  EXPECT_EQ(read_small_file(file), "0\n1\nt 0 5\n");
  EXPECT_FALSE(std::filesystem::exists(folder_ / "recovery-point-offset-checkpoint.tmp"));
  const std::string big(100000, 'x');
  write_file_atomically(file, big);
  EXPECT_EQ(read_small_file(file), big);
}

TEST_F(LogFormatFiles, FailuresThrowNamingThePath) {
  const auto missing = folder_ / "no-such-folder" / "meta.properties";
  try {
    write_file_atomically(missing, "x");
    FAIL() << "no exception";
  } catch (const std::system_error& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-folder"), std::string::npos) << error.what();
  }
  EXPECT_THROW(read_small_file(folder_), std::system_error);  // a folder is no file
}

}  // namespace
}  // namespace kgroups::broker
