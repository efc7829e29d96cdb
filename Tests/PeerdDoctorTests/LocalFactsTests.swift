import PeerdDoctor
import Testing

/// The small parsers around what peerctl reads on this machine.
@Suite("Local facts")
struct LocalFactsTests {
    @Test func interfaceFlagsAreReadAsSysfsWritesThem() {
        #expect(NetworkInterface.flags(sysfs: "0x1003\n") == 0x1003)
        #expect(NetworkInterface.flags(sysfs: "4099") == 4099)
        #expect(NetworkInterface.flags(sysfs: "0xzz") == nil)
    }

    @Test(
        arguments: [
            (0x1003, true, true, true),  // eth0: up, broadcast, multicast
            (0x0003, true, true, false),  // multicast off
            (0x0009, true, false, false),  // lo
            (0x0091, true, false, false),  // wg0: point-to-point
            (0x1002, true, false, true),  // down
            (0x1003, false, false, true),  // no address
        ] as [(UInt32, Bool, Bool, Bool)]
    )
    func mdnsRunsOnInterfacesThatAreUpWithAnAddress(flags: UInt32, address: Bool, carries: Bool, multicast: Bool) {
        let interface = NetworkInterface(name: "x", flags: flags, hasAddress: address)
        #expect(interface.carriesMDNS == carries && interface.isMulticast == multicast)
    }

    @Test func theHostsLineOfNSSwitchGivesItsModules() {
        let text = """
            # hosts: files
            passwd:         files systemd
            hosts:          files mdns4_minimal [NOTFOUND=return] dns myhostname # comment
            """
        #expect(NSSwitch.hostsModules(text) == ["files", "mdns4_minimal", "dns", "myhostname"])
        #expect(NSSwitch.hostsModules("passwd: files") == nil)
        #expect(NSSwitch.hostsModules(nil) == nil)
    }

    @Test func systemctlShowIsRead() {
        #expect(
            SystemdUnitState.parse(show: "ActiveState=failed\nSubState=failed\nResult=exit-code\n")
                == .state(active: "failed", sub: "failed", result: "exit-code")
        )
        #expect(SystemdUnitState.parse(show: "Failed to connect to bus") == nil)
    }
}
