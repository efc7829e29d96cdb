import CDBus

/// Writing and reading values with libdbus's message iterators: its `dbus_message_append_args` and
/// `dbus_message_get_args` are variadic, which Swift can't call. An iterator is a plain struct with no
/// pointers into its parent, so a Swift `var` copy is a valid one.
extension BusValue {
    /// Appends the value at `iterator`; false when libdbus is out of memory.
    func append(to iterator: inout DBusMessageIter) -> Bool {
        switch self {
        case .byte(var value): dbus_message_iter_append_basic(&iterator, BusType.byte, &value) != 0
        case .int32(var value): dbus_message_iter_append_basic(&iterator, BusType.int32, &value) != 0
        case .uint32(var value): dbus_message_iter_append_basic(&iterator, BusType.uint32, &value) != 0
        case .string(let text): Self.append(text, to: &iterator)
        case .strings(let texts):
            Self.appendContainer(BusType.array, signature: "s", to: &iterator) { array in
                texts.allSatisfy { Self.append($0, to: &array) }
            }
        case .dictionary(let entries):
            Self.appendContainer(BusType.array, signature: "{sv}", to: &iterator) { array in
                entries.sorted { $0.key < $1.key }.allSatisfy { key, value in
                    Self.appendContainer(BusType.dictEntry, signature: nil, to: &array) { entry in
                        Self.append(key, to: &entry)
                            && Self.appendContainer(BusType.variant, signature: value.signature, to: &entry) {
                                value.append(to: &$0)
                            }
                    }
                }
            }
        }
    }

    /// A string: a Swift string is valid UTF-8, which libdbus checks (it aborts on a bad one); an
    /// embedded NUL ends it, as in C.
    private static func append(_ text: String, to iterator: inout DBusMessageIter) -> Bool {
        text.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            return dbus_message_iter_append_basic(&iterator, BusType.string, &pointer) != 0
        }
    }

    private static func appendContainer(
        _ type: Int32,
        signature: String?,
        to iterator: inout DBusMessageIter,
        _ contents: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        guard dbus_message_iter_open_container(&iterator, type, signature, &inner) != 0 else { return false }
        guard contents(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}

extension BusValue {
    /// The values from `iterator` to the end; nil when one is of a type ``BusValue`` doesn't have.
    static func readAll(_ iterator: inout DBusMessageIter) -> [BusValue]? {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != BusType.invalid {
            guard let value = read(&iterator) else { return nil }
            values.append(value)
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    /// The value at `iterator` (a variant's content, for a variant).
    private static func read(_ iterator: inout DBusMessageIter) -> BusValue? {
        switch dbus_message_iter_get_arg_type(&iterator) {
        case BusType.byte: return .byte(basic(&iterator, 0))
        case BusType.int32: return .int32(basic(&iterator, 0))
        case BusType.uint32: return .uint32(basic(&iterator, 0))
        case BusType.string: return .string(readString(&iterator))
        case BusType.variant: return inside(&iterator) { read(&$0) }
        case BusType.array:
            switch dbus_message_iter_get_element_type(&iterator) {
            case BusType.string: return .strings(inside(&iterator) { readStrings(&$0) })
            case BusType.dictEntry: return inside(&iterator) { readEntries(&$0) }.map(BusValue.dictionary)
            default: return nil
            }
        default: return nil
        }
    }

    private static func readStrings(_ array: inout DBusMessageIter) -> [String] {
        var texts: [String] = []
        while dbus_message_iter_get_arg_type(&array) == BusType.string {
            texts.append(readString(&array))
            dbus_message_iter_next(&array)
        }
        return texts
    }

    private static func readEntries(_ array: inout DBusMessageIter) -> [String: BusValue]? {
        var entries: [String: BusValue] = [:]
        while dbus_message_iter_get_arg_type(&array) == BusType.dictEntry {
            let entry: (String, BusValue)? = inside(&array) { entry in
                guard dbus_message_iter_get_arg_type(&entry) == BusType.string else { return nil }
                let key = readString(&entry)
                guard dbus_message_iter_next(&entry) != 0, let value = read(&entry) else { return nil }
                return (key, value)
            }
            guard let (key, value) = entry else { return nil }
            entries[key] = value
            dbus_message_iter_next(&array)
        }
        return entries
    }

    /// A fixed-size value: the caller has checked the type code, so libdbus writes exactly its bytes.
    private static func basic<Value: FixedWidthInteger>(_ iterator: inout DBusMessageIter, _ zero: Value) -> Value {
        var value = zero
        withUnsafeMutableBytes(of: &value) { dbus_message_iter_get_basic(&iterator, $0.baseAddress) }
        return value
    }

    private static func readString(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func inside<Result>(
        _ iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Result
    ) -> Result {
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        return body(&inner)
    }
}
