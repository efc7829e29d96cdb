#!/usr/bin/env python3
"""A desktop's notification server of the test's own, on a real session bus: it owns
org.freedesktop.Notifications (the freedesktop Desktop Notifications spec, 1.2), answers each
Notify with a new id, and records it as one JSON line in RECORD. A line `invoke ID` on its stdin
emits ActionInvoked(ID, "default"), as a click on the notification would; `close ID` emits
NotificationClosed(ID, 2). It prints `ready` once it owns the name.

    python3 notification_server.py ADDRESS RECORD
"""
import asyncio
import json
import sys

from dbus_next import Variant
from dbus_next.aio import MessageBus
from dbus_next.service import ServiceInterface, method, signal

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class Notifications(ServiceInterface):
    def __init__(self, record):
        super().__init__(NAME)
        self.record, self.last_id = record, 0

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",  # noqa: F821
               actions: "as", hints: "a{sv}", expire_timeout: "i") -> "u":  # noqa: F821
        self.last_id += 1
        entry = {"id": self.last_id, "app_name": app_name, "app_icon": app_icon, "summary": summary, "body": body,
                 "actions": actions, "expire_timeout": expire_timeout,
                 "hints": {key: value.value for key, value in hints.items() if isinstance(value, Variant)}}
        with open(self.record, "a") as f:
            f.write(json.dumps(entry) + "\n")
        return self.last_id

    @method()
    def GetCapabilities(self) -> "as":  # noqa: F821
        return ["actions", "body", "icon-static"]

    @method()
    def GetServerInformation(self) -> "ssss":  # noqa: F821
        return ["peerd-tests", "peerd", "1", "1.2"]

    @method()
    def CloseNotification(self, id: "u"):  # noqa: F821, A002
        self.NotificationClosed(id, 3)

    @signal()
    def ActionInvoked(self, id, key) -> "us":  # noqa: A002
        return [id, key]

    @signal()
    def NotificationClosed(self, id, reason) -> "uu":  # noqa: A002
        return [id, reason]


async def main(address, record):
    bus = await MessageBus(bus_address=address).connect()
    server = Notifications(record)
    bus.export(PATH, server)
    await bus.request_name(NAME)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        verb, _, arg = line.strip().partition(" ")
        if verb == "invoke":
            server.ActionInvoked(int(arg), "default")
        elif verb == "close":
            server.NotificationClosed(int(arg), 2)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
