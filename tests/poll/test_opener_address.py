"""The opening limit's key for a client address: a flooder who rotates IPv6 addresses inside the /64 he was given
stays one opener; IPv4 addresses stay apart; what is not an address is the one local address, never an error."""

import ipaddress

from hypothesis import given
from hypothesis import strategies as st

from attn_ui.views.poll_service import address_key


def test_addresses_inside_one_ipv6_network_are_one_opener():
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:fffe") == \
        "address:2001:db8:1:2::/64"


def test_neighbouring_ipv6_networks_and_ipv4_addresses_stay_apart():
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("192.0.2.10") == "address:192.0.2.10" != address_key("192.0.2.11")


def test_an_ipv4_address_written_as_ipv6_is_that_ipv4_address():
    assert address_key("::ffff:192.0.2.10") == address_key("192.0.2.10")


def test_no_address_or_garbage_is_the_local_address():
    for value in (None, "", "not an address", "<script>x</script>", "1.2.3.4.5", 12, b"1.2.3.4"):
        assert address_key(value) == "address:local"


@given(st.ip_addresses(v=6), st.integers(min_value=0, max_value=2**64 - 1))
def test_any_rotation_inside_the_network_keeps_the_key(address, host_bits):
    network = int(address) >> 64 << 64
    rotated = ipaddress.IPv6Address(network | host_bits)
    if address.ipv4_mapped is None and rotated.ipv4_mapped is None:
        assert address_key(str(address)) == address_key(str(rotated))
