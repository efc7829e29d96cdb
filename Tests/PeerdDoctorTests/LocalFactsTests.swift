import Foundation
import PeerdDoctor
import PeerdTestKit
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
        let show =
            "LoadState=loaded\nActiveState=failed\nSubState=failed\nResult=exit-code\nUnitFileState=enabled\n"
            + "FragmentPath=/usr/lib/systemd/user/peerd.service\n"
        #expect(
            SystemdUnitState.read(installed: nil, show: .answered(show))
                == .state(
                    active: "failed",
                    sub: "failed",
                    result: "exit-code",
                    enabled: "enabled",
                    path: "/usr/lib/systemd/user/peerd.service"
                )
        )
        #expect(SystemdUnitState.read(installed: nil, show: .answered("Failed to connect to bus")) == .notInstalled)
        let unknown = "LoadState=not-found\nActiveState=inactive\nSubState=dead\nResult=success\nFragmentPath=\n"
        #expect(SystemdUnitState.read(installed: nil, show: .answered(unknown)) == .notInstalled)
    }

    /// A package puts the unit in /usr/lib/systemd/user, `make install` in ~/.config/systemd/user:
    /// doctor finds it in either without asking a user manager, and says which is missing.
    @Test func theUnitIsFoundWhereverSystemdLooksForUserUnits() throws {
        let home = ["HOME": "/home/alice", "XDG_RUNTIME_DIR": "/run/user/1000"]
        let directories = SystemdUnitState.userUnitDirectories(home)
        #expect(directories.first == "/home/alice/.config/systemd/user")
        for folder in ["/etc/systemd/user", "/home/alice/.local/share/systemd/user", "/usr/lib/systemd/user"] {
            #expect(directories.contains(folder), "\(folder)")
        }
        let local = try #require(directories.firstIndex(of: "/usr/local/lib/systemd/user"))
        #expect(directories.firstIndex(of: "/usr/lib/systemd/user").map { local < $0 } == true)
        let custom = SystemdUnitState.userUnitDirectories(
            ["HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_DIRS": "/d1:/d2", "XDG_DATA_HOME": ""]
        )
        #expect(custom.first == "/c/systemd/user" && custom.contains("/d2/systemd/user"))
        #expect(custom.contains("/h/.local/share/systemd/user") && !custom.contains("/usr/share/systemd/user"))

        // A temporary folder stands for /usr/lib/systemd/user; no user manager answers here.
        let scratch = try ScratchDirectory("units")
        defer { scratch.remove() }
        let folder = scratch.url.path
        let unit = folder + "/" + SystemdUnitState.unitName
        #expect(FileManager.default.createFile(atPath: unit, contents: Data("[Service]\n".utf8)))
        let found = ([folder + "/none"] + [folder]).map { $0 + "/peerd.service" }.first {
            FileManager.default.fileExists(atPath: $0)
        }
        #expect(found == unit)
        let noBus = "Failed to connect to bus: No medium found"
        #expect(SystemdUnitState.read(installed: found, show: .failed(noBus)) == .noManager(noBus, path: unit))
        #expect(SystemdUnitState.read(installed: nil, show: .failed(noBus)) == .notInstalled)
        #expect(
            SystemdUnitState.read(installed: found, show: .noSystemctl)
                == .noManager("systemctl is not installed", path: unit)
        )
    }
}
