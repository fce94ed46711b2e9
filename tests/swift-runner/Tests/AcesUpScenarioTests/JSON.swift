import Foundation

/// A JSON value as the scenario files hold it (decoded with Foundation's `JSONDecoder`).
enum JSON: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    static func parse(_ data: Data) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: data)
    }

    subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var int: Int? { number.map { Int($0) } }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var array: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.keys.sorted().map { "\"\($0)\":\(object[$0]!.description)" }.joined(separator: ",") + "}"
        }
    }
}

/// Objects match partially (every expected key must exist and match), arrays element by element
/// with equal length, numbers within 1e-9, everything else exactly.
func compare(_ expected: JSON, _ actual: JSON, path: String, problems: inout [String]) {
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
        for key in e.keys.sorted() {
            if let value = a[key] {
                compare(e[key]!, value, path: "\(path).\(key)", problems: &problems)
            } else {
                problems.append("\(path).\(key): no such field")
            }
        }
    case (.array(let e), .array(let a)):
        if e.count == a.count {
            for index in e.indices {
                compare(e[index], a[index], path: "\(path)[\(index)]", problems: &problems)
            }
        } else {
            problems.append("\(path): expected \(expected), got \(actual)")
        }
    case (.number(let e), .number(let a)):
        if abs(e - a) > 1e-9 { problems.append("\(path): expected \(expected), got \(actual)") }
    default:
        if expected != actual { problems.append("\(path): expected \(expected), got \(actual)") }
    }
}
