import Testing

@testable import PeerdDaemon

/// Which of this machine's addresses a reach names (proto/PEER.md, "Reach").
@Suite("Local addresses")
struct LocalAddressesTests {
    @Test(arguments: [
        "docker0", "br-3f2a9c1d7e6b", "virbr0", "vnet3", "veth1a2b3c", "lxcbr0", "lxdbr0", "podman0", "cni0",
    ])
    func containerAndVirtualMachineBridgesAreLeftOut(_ name: String) {
        #expect(LocalAddresses.isLocalOnly(interface: name))
    }

    @Test(arguments: ["eth0", "enp3s0", "wlp2s0", "br0", "bond0", "tailscale0", "wg0"])
    func theLANAndOverlaysStay(_ name: String) {
        #expect(!LocalAddresses.isLocalOnly(interface: name))
    }

    @Test func loopbackAndLinkLocalAreNotDialable() {
        #expect(!LocalAddresses.isDialable("127.0.0.1"))
        #expect(!LocalAddresses.isDialable("169.254.10.1"))
        #expect(!LocalAddresses.isDialable("fe80::1"))
        #expect(!LocalAddresses.isDialable("::1"))
        #expect(LocalAddresses.isDialable("192.168.1.20"))
        #expect(LocalAddresses.isDialable("fd00::20"))
    }
}
