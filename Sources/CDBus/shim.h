#include <dbus/dbus.h>
// For the bus thread's wake-up (BusThread.swift): Swift's Glibc module leaves eventfd out.
#include <sys/eventfd.h>
