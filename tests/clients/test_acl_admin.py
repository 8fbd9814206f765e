# SPDX-License-Identifier: Apache-2.0
"""kafka-python 2.0.2's KafkaAdminClient managing ACLs on kgroupsd (CreateAcls, DescribeAcls
and DeleteAcls at v1, the newest it knows): without an authorizer each call is refused with
SECURITY_DISABLED; with `--authorizer --allow-everyone-if-no-acl-found` an anonymous client
creates ACLs, finds them with literal, prefixed, ANY and MATCH filters, and deletes them, each
call checked by what a later DescribeAcls shows. Until kgroupsd has those flags (its --help
names them), the tests that need them are skipped, saying so."""
import subprocess

import pytest
from kafka import KafkaAdminClient
from kafka.admin import (ACL, ACLFilter, ACLOperation, ACLPermissionType,
                         ACLResourcePatternType, ResourcePattern, ResourcePatternFilter,
                         ResourceType)
from kafka.errors import InvalidRequestError, NoError, SecurityDisabledError

from kgroupsd_process import kgroupsd_binary

TIMEOUT_S = 30
AUTHORIZER_FLAGS = ("--authorizer", "--allow-everyone-if-no-acl-found")


def admin_of(broker):
    return KafkaAdminClient(bootstrap_servers=broker.bootstrap,
                            request_timeout_ms=TIMEOUT_S * 1000)


def has_authorizer_flags():
    usage = subprocess.run([str(kgroupsd_binary()), "--help"], capture_output=True, text=True,
                           timeout=10)
    return all(flag in usage.stdout + usage.stderr for flag in AUTHORIZER_FLAGS)


@pytest.fixture
def admin(start_kgroupsd):
    if not has_authorizer_flags():
        pytest.skip("kgroupsd has no --authorizer / --allow-everyone-if-no-acl-found yet")
    client = admin_of(start_kgroupsd(*AUTHORIZER_FLAGS))
    yield client
    client.close()


def acl(principal, operation, resource_type, name, pattern=ACLResourcePatternType.LITERAL):
    return ACL(principal=principal, host="*", operation=operation,
               permission_type=ACLPermissionType.ALLOW,
               resource_pattern=ResourcePattern(resource_type, name, pattern))


def acl_filter(resource_type=ResourceType.ANY, name=None, pattern=ACLResourcePatternType.ANY,
               principal=None):
    return ACLFilter(principal=principal, host=None, operation=ACLOperation.ANY,
                     permission_type=ACLPermissionType.ANY,
                     resource_pattern=ResourcePatternFilter(resource_type, name, pattern))


def described(admin, **fields):
    """The ACLs a DescribeAcls with this filter lists, as comparable tuples."""
    acls, error = admin.describe_acls(acl_filter(**fields))
    assert error is NoError, error
    return sorted((a.principal, a.operation.name, a.resource_pattern.resource_type.name,
                   a.resource_pattern.resource_name, a.resource_pattern.pattern_type.name)
                  for a in acls)


ALICE_READS_ORDERS = ("User:alice", "READ", "TOPIC", "orders", "LITERAL")
ALICE_WRITES_ORD = ("User:alice", "WRITE", "TOPIC", "ord", "PREFIXED")
BOB_READS_ALL = ("User:bob", "READ", "TOPIC", "*", "LITERAL")
ALICE_READS_GROUP = ("User:alice", "READ", "GROUP", "g", "LITERAL")


def create_four(admin):
    result = admin.create_acls([
        acl("User:alice", ACLOperation.READ, ResourceType.TOPIC, "orders"),
        acl("User:alice", ACLOperation.WRITE, ResourceType.TOPIC, "ord",
            ACLResourcePatternType.PREFIXED),
        acl("User:bob", ACLOperation.READ, ResourceType.TOPIC, "*"),
        acl("User:alice", ACLOperation.READ, ResourceType.GROUP, "g"),
    ])
    assert result["failed"] == [], result
    assert len(result["succeeded"]) == 4


def test_without_an_authorizer_each_call_is_security_disabled(start_kgroupsd):
    client = admin_of(start_kgroupsd())
    try:
        with pytest.raises(SecurityDisabledError):
            client.describe_acls(acl_filter())
        result = client.create_acls([acl("User:a", ACLOperation.READ, ResourceType.TOPIC, "t")])
        [(_, error)] = result["failed"]
        assert error is SecurityDisabledError, error
        [(_, matched, error)] = client.delete_acls([acl_filter()])
        assert (matched, error) == ([], SecurityDisabledError)
    finally:
        client.close()


def test_created_acls_are_found_by_each_kind_of_filter(admin):
    create_four(admin)
    assert described(admin) == sorted(
        [ALICE_READS_ORDERS, ALICE_WRITES_ORD, BOB_READS_ALL, ALICE_READS_GROUP])
    assert described(admin, resource_type=ResourceType.TOPIC, name="orders",
                     pattern=ACLResourcePatternType.MATCH) == sorted(
        [ALICE_READS_ORDERS, ALICE_WRITES_ORD, BOB_READS_ALL])
    assert described(admin, resource_type=ResourceType.TOPIC, name="orders",
                     pattern=ACLResourcePatternType.LITERAL) == [ALICE_READS_ORDERS]
    assert described(admin, pattern=ACLResourcePatternType.PREFIXED) == [ALICE_WRITES_ORD]
    assert described(admin, principal="User:bob") == [BOB_READS_ALL]


def test_delete_returns_what_each_filter_deleted(admin):
    create_four(admin)
    results = admin.delete_acls([acl_filter(pattern=ACLResourcePatternType.PREFIXED),
                                 acl_filter(resource_type=ResourceType.GROUP)])
    assert [error for _, _, error in results] == [NoError, NoError]
    deleted = [[(a.principal, a.resource_pattern.resource_name) for a, _ in matched]
               for _, matched, _ in results]
    assert deleted == [[("User:alice", "ord")], [("User:alice", "g")]]
    assert described(admin) == sorted([ALICE_READS_ORDERS, BOB_READS_ALL])


def test_an_invalid_acl_is_refused_and_the_others_created(admin):
    result = admin.create_acls([
        acl("User:a", ACLOperation.ALTER, ResourceType.CLUSTER, "not-the-cluster"),
        acl("User:a", ACLOperation.READ, ResourceType.TOPIC, "t"),
    ])
    [(refused, error)] = result["failed"]
    assert refused.resource_pattern.resource_name == "not-the-cluster"
    assert error is InvalidRequestError, error
    assert len(result["succeeded"]) == 1
    assert described(admin) == [("User:a", "READ", "TOPIC", "t", "LITERAL")]
