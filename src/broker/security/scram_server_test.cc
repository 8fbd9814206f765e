// SPDX-License-Identifier: Apache-2.0
#include "broker/security/scram_server.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

#include "broker/security/base64.h"

namespace kgroups::broker {
namespace {

using Outcome = SaslStep::Outcome;

std::string fixed_nonce_source_value() { return "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"; }

// The store of RFC 7677's example: user "user", password "pencil", its salt, 4096 rounds.
CredentialStore rfc7677_store() {
  CredentialStore store;
  const std::string salt = *base64_decode("W22ZaJ0SNY7soEsUEjb6gQ==");
  const ScramDigest salted =
      scram_salted_password(ScramMechanism::kSha256, "pencil", scram_bytes(salt), 4096);
  EXPECT_EQ(store.set_salted_password("user", ScramMechanism::kSha256, scram_bytes(salt), 4096,
                                      salted.view()),
            std::nullopt);
  return store;
}

TEST(ScramServer, ReproducesTheRfc7677Sha256Example) {
  const CredentialStore store = rfc7677_store();
  ScramServer server(ScramMechanism::kSha256, store, fixed_nonce_source_value);
  const SaslStep first = server.step("n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  ASSERT_EQ(first.outcome, Outcome::kChallenge) << first.log_reason;
  EXPECT_EQ(first.bytes,
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,"
            "i=4096");
  const SaslStep final = server.step(
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
      "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  ASSERT_EQ(final.outcome, Outcome::kAuthenticated) << final.log_reason;
  EXPECT_EQ(final.bytes, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
  EXPECT_EQ(final.user, "user");
  EXPECT_EQ(server.step("c=biws").outcome, Outcome::kFailed);  // nothing after the end
}

// A SCRAM client as RFC 5802 section 3 has it, for full exchanges.
class TinyScramClient {
 public:
  TinyScramClient(ScramMechanism mechanism, std::string user, std::string password)
      : mechanism_(mechanism), user_(std::move(user)), password_(std::move(password)) {}

  std::string first() {
    bare_ = "n=" + scram_saslname_encode(user_) + ",r=" + client_nonce_;
    return header_ + bare_;
  }

  // The client-final-message for `server_first`, keeping what it needs to check the server.
  std::string final(const std::string& server_first) {
    std::string_view rest = server_first;
    const std::string nonce = attribute(rest, "r=");
    const std::string salt = *base64_decode(attribute(rest, "s="));
    const int iterations = std::stoi(attribute(rest, "i="));
    const ScramDigest salted =
        scram_salted_password(mechanism_, password_, scram_bytes(salt), iterations);
    // librdkafka 2.0 sends its own nonce again in front of the combined one.
    const std::string without_proof =
        "c=" + base64_encode(scram_bytes(binding_header_)) +
        ",r=" + (repeat_client_nonce_ ? client_nonce_ : std::string()) + nonce;
    const std::string auth_message = bare_ + "," + server_first + "," + without_proof;
    const ScramDigest client_key = scram_hmac(mechanism_, salted.view(), "Client Key");
    const ScramDigest stored_key = scram_hash(mechanism_, client_key.view());
    const ScramDigest signature = scram_hmac(mechanism_, stored_key.view(), auth_message);
    ScramDigest proof = client_key;
    for (std::size_t i = 0; i < proof.size; ++i) proof.bytes[i] ^= signature.bytes[i];
    const ScramDigest server_key = scram_hmac(mechanism_, salted.view(), "Server Key");
    expected_server_final_ =
        "v=" + base64_encode(scram_hmac(mechanism_, server_key.view(), auth_message).view());
    return without_proof + ",p=" + base64_encode(proof.view());
  }

  [[nodiscard]] const std::string& expected_server_final() const { return expected_server_final_; }
  void repeat_client_nonce() { repeat_client_nonce_ = true; }
  // The gs2 header of the first message, and the one the final message's channel binding
  // names (the same for an honest client).
  void use_gs2_header(std::string header, std::string binding_header) {
    header_ = std::move(header);
    binding_header_ = std::move(binding_header);
  }

 private:
  static std::string attribute(std::string_view& rest, std::string_view name) {
    EXPECT_TRUE(rest.starts_with(name)) << rest;
    const std::size_t comma = rest.find(',');
    std::string value(rest.substr(name.size(), comma - name.size()));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    return value;
  }

  ScramMechanism mechanism_;
  std::string user_;
  std::string password_;
  std::string client_nonce_ = "fyko+d2lbbFgONRv9qkxdawL";
  std::string header_ = "n,,";
  std::string binding_header_ = "n,,";
  std::string bare_;
  std::string expected_server_final_;
  bool repeat_client_nonce_ = false;
};

CredentialStore store_with(std::string_view user, std::string_view password) {
  CredentialStore store;
  EXPECT_EQ(store.set_password(user, ScramMechanism::kSha512, password), std::nullopt);
  EXPECT_EQ(store.set_password(user, ScramMechanism::kSha256, password), std::nullopt);
  return store;
}

TEST(ScramServer, CompletesAFullSha512ExchangeWithARandomServerNonce) {
  const CredentialStore store = store_with("alice", "wonderland");
  TinyScramClient client(ScramMechanism::kSha512, "alice", "wonderland");
  ScramServer server(ScramMechanism::kSha512, store);
  const SaslStep first = server.step(client.first());
  ASSERT_EQ(first.outcome, Outcome::kChallenge) << first.log_reason;
  // The server's nonce extends the client's by 32 characters of its own.
  EXPECT_TRUE(first.bytes.starts_with("r=fyko+d2lbbFgONRv9qkxdawL")) << first.bytes;
  EXPECT_EQ(first.bytes.find(','), std::string("r=fyko+d2lbbFgONRv9qkxdawL").size() + 32);
  const SaslStep final = server.step(client.final(first.bytes));
  ASSERT_EQ(final.outcome, Outcome::kAuthenticated) << final.log_reason;
  EXPECT_EQ(final.bytes, client.expected_server_final());
  EXPECT_EQ(final.user, "alice");
}

TEST(ScramServer, AcceptsAnAuthorizationIdThatIsTheUserAndBindsTheHeaderSent) {
  const CredentialStore store = store_with("a,b", "pw");
  TinyScramClient client(ScramMechanism::kSha256, "a,b", "pw");
  client.use_gs2_header("n,a=a=2Cb,", "n,a=a=2Cb,");
  ScramServer server(ScramMechanism::kSha256, store);
  const SaslStep first = server.step(client.first());
  ASSERT_EQ(first.outcome, Outcome::kChallenge) << first.log_reason;
  const SaslStep final = server.step(client.final(first.bytes));
  ASSERT_EQ(final.outcome, Outcome::kAuthenticated) << final.log_reason;
  EXPECT_EQ(final.user, "a,b");
  // The final message's channel binding must be the header the first message sent.
  TinyScramClient switched(ScramMechanism::kSha256, "a,b", "pw");
  switched.use_gs2_header("n,a=a=2Cb,", "n,,");
  ScramServer other(ScramMechanism::kSha256, store);
  const SaslStep other_first = other.step(switched.first());
  ASSERT_EQ(other_first.outcome, Outcome::kChallenge) << other_first.log_reason;
  const SaslStep refused = other.step(switched.final(other_first.bytes));
  EXPECT_EQ(refused.outcome, Outcome::kFailed);
  EXPECT_NE(refused.log_reason.find("channel binding"), std::string::npos) << refused.log_reason;
}

TEST(ScramServer, AcceptsAClientNonceEndingWithTheCombinedOneAsKafkaDoes) {
  const CredentialStore store = store_with("alice", "alice-pw");
  TinyScramClient client(ScramMechanism::kSha256, "alice", "alice-pw");
  client.repeat_client_nonce();
  ScramServer server(ScramMechanism::kSha256, store);
  const SaslStep first = server.step(client.first());
  ASSERT_EQ(first.outcome, Outcome::kChallenge) << first.log_reason;
  const SaslStep final = server.step(client.final(first.bytes));
  ASSERT_EQ(final.outcome, Outcome::kAuthenticated) << final.log_reason;
  EXPECT_EQ(final.bytes, client.expected_server_final());

  ScramServer other(ScramMechanism::kSha256, store);
  const SaslStep other_first = other.step(client.first());
  ASSERT_EQ(other_first.outcome, Outcome::kChallenge);
  const SaslStep mismatched =
      other.step("c=biws,r=not-the-nonce,p=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
  EXPECT_EQ(mismatched.outcome, Outcome::kFailed);
  EXPECT_NE(mismatched.log_reason.find("invalid client nonce"), std::string::npos);
}

TEST(ScramServer, UnescapesSaslnamesInTheUserName) {
  const CredentialStore store = store_with("a,b=c", "pw");
  TinyScramClient client(ScramMechanism::kSha256, "a,b=c", "pw");
  ScramServer server(ScramMechanism::kSha256, store);
  const std::string first_message = client.first();
  EXPECT_EQ(first_message.find("n=a=2Cb=3Dc,"), 3u) << first_message;
  const SaslStep first = server.step(first_message);
  ASSERT_EQ(first.outcome, Outcome::kChallenge) << first.log_reason;
  const SaslStep final = server.step(client.final(first.bytes));
  ASSERT_EQ(final.outcome, Outcome::kAuthenticated) << final.log_reason;
  EXPECT_EQ(final.user, "a,b=c");
}

TEST(ScramServer, SaslnameDecodingRefusesStrayEquals) {
  EXPECT_EQ(scram_saslname_decode("a=2Cb"), "a,b");
  EXPECT_EQ(scram_saslname_decode("a=3D"), "a=");
  EXPECT_EQ(scram_saslname_decode("a=2"), std::nullopt);
  EXPECT_EQ(scram_saslname_decode("a=41"), std::nullopt);
  EXPECT_EQ(scram_saslname_decode(""), std::nullopt);
}

TEST(ScramServer, RefusesAWrongPassword) {
  const CredentialStore store = store_with("alice", "wonderland");
  TinyScramClient client(ScramMechanism::kSha512, "alice", "looking-glass");
  ScramServer server(ScramMechanism::kSha512, store);
  const SaslStep first = server.step(client.first());
  ASSERT_EQ(first.outcome, Outcome::kChallenge);
  const SaslStep final = server.step(client.final(first.bytes));
  EXPECT_EQ(final.outcome, Outcome::kFailed);
  EXPECT_TRUE(final.client_error.empty());  // the client sees only the generic message
  EXPECT_NE(final.log_reason.find("invalid client proof"), std::string::npos) << final.log_reason;
}

TEST(ScramServer, RefusesAnUnknownUserAtTheFirstMessage) {
  const CredentialStore store = store_with("alice", "wonderland");
  ScramServer server(ScramMechanism::kSha512, store);
  const SaslStep first = server.step("n,,n=mallory,r=abc");
  EXPECT_EQ(first.outcome, Outcome::kFailed);
  EXPECT_NE(first.log_reason.find("unknown user"), std::string::npos) << first.log_reason;
}

TEST(ScramServer, RefusesAUserWithoutACredentialForTheMechanism) {
  CredentialStore store;
  ASSERT_EQ(store.set_password("only256", ScramMechanism::kSha256, "pw"), std::nullopt);
  ScramServer server(ScramMechanism::kSha512, store);
  EXPECT_EQ(server.step("n,,n=only256,r=abc").outcome, Outcome::kFailed);
}

TEST(ScramServer, RefusesATamperedNonceEvenWithAValidProofForIt) {
  const CredentialStore store = store_with("alice", "wonderland");
  TinyScramClient client(ScramMechanism::kSha512, "alice", "wonderland");
  ScramServer server(ScramMechanism::kSha512, store);
  const SaslStep first = server.step(client.first());
  ASSERT_EQ(first.outcome, Outcome::kChallenge);
  std::string tampered = first.bytes;
  tampered[tampered.find(',') - 1] ^= 1;  // the last character of the server's nonce
  const SaslStep final = server.step(client.final(tampered));
  EXPECT_EQ(final.outcome, Outcome::kFailed);
  EXPECT_NE(final.log_reason.find("nonce"), std::string::npos) << final.log_reason;
}

TEST(ScramServer, RefusesAFinalMessageWithAnAlteredProof) {
  const CredentialStore store = store_with("alice", "wonderland");
  TinyScramClient client(ScramMechanism::kSha512, "alice", "wonderland");
  ScramServer server(ScramMechanism::kSha512, store);
  const SaslStep first = server.step(client.first());
  std::string final_message = client.final(first.bytes);
  const std::size_t proof_at = final_message.find(",p=") + 3;
  final_message[proof_at] = final_message[proof_at] == 'A' ? 'B' : 'A';
  EXPECT_EQ(server.step(final_message).outcome, Outcome::kFailed);
}

TEST(ScramServer, RefusesChannelBindingAndAuthorizationIdsOtherThanTheUser) {
  const CredentialStore store = store_with("alice", "wonderland");
  const std::pair<std::string, std::string> cases[] = {
      {"p=tls-unique,,n=alice,r=abc", "channel binding"},
      {"y,,n=alice,r=abc", "channel binding"},
      {"n,a=bob,n=alice,r=abc", "authorization id"},
      {"n,a=al=ice,n=alice,r=abc", "authorization id"},
      {"n,a=alice", "gs2 header"},
      {"n=alice,r=abc", "gs2 header"},
      {"", "gs2 header"},
  };
  for (const auto& [message, reason] : cases) {
    ScramServer server(ScramMechanism::kSha512, store);
    const SaslStep step = server.step(message);
    EXPECT_EQ(step.outcome, Outcome::kFailed) << message;
    EXPECT_NE(step.log_reason.find(reason), std::string::npos)
        << message << ": " << step.log_reason;
  }
}

TEST(ScramServer, RefusesReservedMextAndKafkaTokenAuth) {
  const CredentialStore store = store_with("alice", "wonderland");
  ScramServer with_mext(ScramMechanism::kSha512, store);
  const SaslStep mext = with_mext.step("n,,m=ext,n=alice,r=abc");
  EXPECT_EQ(mext.outcome, Outcome::kFailed);
  EXPECT_NE(mext.log_reason.find("m="), std::string::npos) << mext.log_reason;
  ScramServer with_token(ScramMechanism::kSha512, store);
  const SaslStep token = with_token.step("n,,n=alice,r=abc,tokenauth=true");
  EXPECT_EQ(token.outcome, Outcome::kFailed);
  EXPECT_NE(token.log_reason.find("delegation tokens"), std::string::npos) << token.log_reason;
}

TEST(ScramServer, RefusesMalformedFirstMessages) {
  const CredentialStore store = store_with("alice", "wonderland");
  for (const std::string_view message :
       {"n,,", "n,,n=alice", "n,,n=alice,r=", "n,,r=abc,n=alice", "n,,n=al=ice,r=abc",
        "n,,n=,r=abc", "n,,n=alice,r=a\001b", "n,,n=alice,r=abc,junk"}) {
    ScramServer server(ScramMechanism::kSha512, store);
    EXPECT_EQ(server.step(message).outcome, Outcome::kFailed) << message;
  }
}

TEST(ScramServer, RefusesMalformedFinalMessages) {
  const CredentialStore store = store_with("alice", "wonderland");
  TinyScramClient client(ScramMechanism::kSha512, "alice", "wonderland");
  const std::string first_message = client.first();
  std::string nonce;
  {
    ScramServer probe(ScramMechanism::kSha512, store, [] { return std::string("SERVER"); });
    const SaslStep first = probe.step(first_message);
    nonce = first.bytes.substr(2, first.bytes.find(',') - 2);
  }
  const std::string valid_proof = base64_encode(std::vector<unsigned char>(64, 7));
  const std::string short_proof = base64_encode(scram_bytes("short"));
  const auto join = [](std::initializer_list<std::string_view> parts) {
    std::string joined;
    for (const std::string_view part : parts) joined.append(part);
    return joined;
  };
  for (const std::string& message :
       {join({"c=biws,r=", nonce}),                                      // no proof
        join({"c=biws,r=", nonce, ",p=!!!!"}),                           // proof not base64
        join({"c=biws,r=", nonce, ",p=", short_proof}),                  // wrong size
        join({"c=cD10bHMtdW5pcXVlLCw=,r=", nonce, ",p=", valid_proof}),  // channel binding
        join({"r=", nonce, ",p=", valid_proof}),                         // no c=
        join({"c=biws,p=", valid_proof})}) {                             // no r=
    ScramServer server(ScramMechanism::kSha512, store, [] { return std::string("SERVER"); });
    ASSERT_EQ(server.step(first_message).outcome, Outcome::kChallenge);
    EXPECT_EQ(server.step(message).outcome, Outcome::kFailed) << message;
  }
}

TEST(ScramServer, RefusesOversizeMessages) {
  const CredentialStore store = store_with("alice", "wonderland");
  ScramServer server(ScramMechanism::kSha512, store);
  const std::string huge = "n,,n=alice,r=" + std::string(ScramServer::kMaxMessageBytes, 'x');
  const SaslStep step = server.step(huge);
  EXPECT_EQ(step.outcome, Outcome::kFailed);
  EXPECT_NE(step.log_reason.find("exceeds"), std::string::npos) << step.log_reason;
}

}  // namespace
}  // namespace kgroups::broker
