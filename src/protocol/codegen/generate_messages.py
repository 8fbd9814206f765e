#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
#
# Generates the C++ codec of one Kafka API from its schema (src/protocol/schema/<api>.schema):
# protocol/messages/<api>.h with the request and response structs, and <api>.cc with their
# decode() and encode() for every version, flexible ones (KIP-482: compact strings, bytes and
# arrays, tagged fields) included. The build runs it for every schema (src/protocol/CMakeLists.txt);
# `--catalog` writes the table of every API's versions (api_catalog.cc) instead.
# The schema language is described in src/protocol/schema/README.md.
#
# Usage: generate_messages.py <schema> <out-dir>
#        generate_messages.py --catalog <out-dir> <schema>...
# Standard library only, so any python3 runs it.
import os
import re
import sys

PRIMITIVES = {
    # name: (C++ type, wire size or None for variable, reader, writer)
    "int8": ("std::int8_t", 1),
    "int16": ("std::int16_t", 2),
    "uint16": ("std::uint16_t", 2),
    "int32": ("std::int32_t", 4),
    "int64": ("std::int64_t", 8),
    "float64": ("double", 8),
    "bool": ("bool", 1),
    "uuid": ("Uuid", 16),
    "error": ("ErrorCode", 2),
}
VARIABLE = {"string", "bytes", "records"}
NUMERIC_DEFAULTS = {"bool": "false", "error": "ErrorCode::kNone", "uuid": "{}", "float64": "0.0"}


class SchemaError(Exception):
    pass


class Versions:
    """An inclusive version range; high None means 'and every later version'."""

    def __init__(self, low, high):
        self.low, self.high = low, high

    @staticmethod
    def parse(text, where):
        match = re.fullmatch(r"v?(\d+)(\+|-(\d+))?", text)
        if not match:
            raise SchemaError(f"{where}: bad version range '{text}' (write 3+, 0-4 or 5)")
        low = int(match.group(1))
        if match.group(2) == "+":
            return Versions(low, None)
        if match.group(3) is not None:
            return Versions(low, int(match.group(3)))
        return Versions(low, low)

    def condition(self, var, message_versions):
        """A C++ condition on `var` that is true inside this range, given the message's own
        range (bounds the message already guarantees are left out); '' when always true."""
        parts = []
        if self.low > message_versions.low:
            parts.append(f"{var} >= {self.low}")
        high = self.high if self.high is not None else None
        if high is not None and (message_versions.high is None or high < message_versions.high):
            parts.append(f"{var} <= {high}")
        return " && ".join(parts)

    def covers_all(self, message_versions):
        return self.condition("v", message_versions) == ""

    def intersect(self, other):
        low = max(self.low, other.low)
        highs = [h for h in (self.high, other.high) if h is not None]
        return Versions(low, min(highs) if highs else None)

    def __str__(self):
        if self.high is None:
            return f"v{self.low}+"
        if self.high == self.low:
            return f"v{self.low}"
        return f"v{self.low}-{self.high}"


class Field:
    def __init__(self, name, type_text, versions, nullable, tag, default, comment, line):
        self.name = name
        self.is_array = type_text.startswith("[]")
        base = type_text[2:] if self.is_array else type_text
        self.nullable_always = base.endswith("?")
        self.base = base.rstrip("?")
        self.versions = versions
        self.nullable = nullable  # Versions or None
        self.tag = tag
        self.default = default
        self.comment = comment
        self.line = line
        self.children = []  # for struct types
        self.struct = None  # Struct, for struct types

    @property
    def is_struct(self):
        return self.base[:1].isupper()

    def nullable_versions(self):
        if self.nullable_always:
            return self.versions
        return self.nullable


class Struct:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields


class Message:
    def __init__(self, api, key, versions, flexible, side, owned, comment):
        self.api, self.key, self.versions, self.flexible = api, key, versions, flexible
        self.side, self.owned, self.comment = side, owned, comment
        self.fields = []
        self.structs = []  # nested structs, innermost first

    @property
    def name(self):
        return self.api + ("Request" if self.side == "request" else "Response")


def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def parse_schema(path):
    """Returns (api name, key, versions, flexible, header comment, [request, response])."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    header_comment = []
    constants = []
    api = None
    messages = []
    stack = []  # (indent, field list, owning field or None)
    for number, raw in enumerate(lines, 1):
        where = f"{path}:{number}"
        if not raw.strip():
            continue
        stripped = raw.strip()
        if stripped.startswith("#"):
            if api is None:
                header_comment.append(stripped[1:].strip() if stripped != "#" else "")
            continue
        text, _, comment = raw.partition("#")
        indent = len(text) - len(text.lstrip(" "))
        words = text.split()
        if indent == 0:
            if words[0] == "api":
                # api <Name> key <N> versions <range> flexible <range|none>
                if len(words) != 8 or words[2] != "key" or words[4] != "versions" or words[6] != "flexible":
                    raise SchemaError(f"{where}: write 'api <Name> key <N> versions <a-b> flexible <n+|none>'")
                api = (words[1], int(words[3]), Versions.parse(words[5], where),
                       None if words[7] == "none" else Versions.parse(words[7], where))
                continue
            if words[0] == "const":
                # const <kName> <type> <value>: a named value for the header
                if len(words) != 4 or words[2] not in PRIMITIVES:
                    raise SchemaError(f"{where}: write 'const <kName> <int type> <value>'")
                constants.append((words[1], PRIMITIVES[words[2]][0], words[3], comment.strip()))
                continue
            if words[0] in ("request", "response"):
                if api is None:
                    raise SchemaError(f"{where}: '{words[0]}' before the 'api' line")
                owned = (words[0] == "response") if len(words) == 1 else words[1] == "owned"
                if len(words) > 1 and words[1] not in ("owned", "views"):
                    raise SchemaError(f"{where}: write '{words[0]}', '{words[0]} owned' or '{words[0]} views'")
                message = Message(api[0], api[1], api[2], api[3], words[0], owned, comment.strip())
                messages.append(message)
                stack = [(0, message.fields, None)]
                continue
            raise SchemaError(f"{where}: expected 'api', 'request' or 'response', got '{words[0]}'")
        if not messages:
            raise SchemaError(f"{where}: a field outside 'request' or 'response'")
        while stack and indent <= stack[-1][0] and len(stack) > 1:
            stack.pop()
        parent_indent, field_list, owner = stack[-1]
        if indent <= parent_indent and owner is not None:
            raise SchemaError(f"{where}: bad indentation")
        if len(words) < 2:
            raise SchemaError(f"{where}: write '<name> <type> [versions] [nullable <range>] [tag <n>] [= <default>]'")
        name, type_text, rest = words[0], words[1], words[2:]
        versions = Versions(0, None)
        nullable = None
        tag = None
        default = None
        i = 0
        while i < len(rest):
            word = rest[i]
            if word == "nullable":
                nullable = Versions.parse(rest[i + 1], where)
                i += 2
            elif word == "tag":
                tag = int(rest[i + 1])
                i += 2
            elif word == "=":
                default = " ".join(rest[i + 1:])
                break
            else:
                versions = Versions.parse(word, where)
                i += 1
        field = Field(name, type_text, versions, nullable, tag, default, comment.strip(), where)
        if not field.is_struct and field.base not in PRIMITIVES and field.base not in VARIABLE:
            raise SchemaError(f"{where}: unknown type '{field.base}'")
        field_list.append(field)
        if field.is_struct:
            stack.append((indent, field.children, field))
    if api is None or len(messages) != 2 or messages[0].side != "request" or messages[1].side != "response":
        raise SchemaError(f"{path}: needs an 'api' line, then 'request' and 'response' sections")
    for message in messages:
        collect_structs(message, message.fields, message.versions)
    return api, header_comment, constants, messages


def collect_structs(message, fields, versions):
    for field in fields:
        if not field.is_struct:
            continue
        if not field.children:
            # A struct defined earlier in the message, used again.
            known = [s for s in message.structs if s.name == field.base]
            if not known:
                raise SchemaError(f"{field.line}: struct type '{field.base}' has no fields "
                                  "(define its fields where it is first used)")
            field.struct = known[0]
            field.children = known[0].fields
            continue
        if any(s.name == field.base for s in message.structs) or field.base == message.name:
            raise SchemaError(f"{field.line}: struct name '{field.base}' used twice in {message.name}")
        collect_structs(message, field.children, versions)
        field.struct = Struct(field.base, field.children)
        message.structs.append(field.struct)


class Emitter:
    def __init__(self, message):
        self.m = message

    # ---- C++ types ----
    def value_type(self, field):
        base = field.base
        if field.is_struct:
            return field.base
        if base in PRIMITIVES:
            return PRIMITIVES[base][0]
        if base == "string":
            return "std::string" if self.m.owned else "std::string_view"
        if base == "bytes":
            return "std::vector<std::uint8_t>" if self.m.owned else "ByteView"
        if base == "records":
            # Responses gather stored batches (written back to back); requests view the frame.
            return "std::vector<ByteView>" if self.m.owned else "ByteView"
        raise SchemaError(f"{field.line}: no C++ type for {base}")

    def is_optional(self, field):
        return field.nullable_versions() is not None

    def cpp_type(self, field):
        value = self.value_type(field)
        if field.is_array:
            value = f"std::vector<{value}>"
        if self.is_optional(field) and not (field.base == "records" and self.m.owned and not field.is_array):
            return f"std::optional<{value}>"
        return value

    def initializer(self, field):
        if field.default is not None:
            if field.base == "error" and not field.is_array:
                return f" = ErrorCode::{field.default}" if field.default.startswith("k") else f" = {field.default}"
            return f" = {field.default}"
        nullable = field.nullable_versions()
        if nullable is not None and not field.nullable_always and \
                nullable.condition("v", field.versions) != "":
            # Nullable only in later versions: the default is the empty value, not null.
            if field.is_array:
                return f" = {self.cpp_type(field)[len('std::optional<'):-1]}{{}}"
            if field.base == "string":
                return ' = ""'
        if field.is_array or self.is_optional(field):
            return "{}"
        if field.base in NUMERIC_DEFAULTS:
            return f" = {NUMERIC_DEFAULTS[field.base]}" if field.base != "uuid" else "{}"
        if field.base in PRIMITIVES:
            return " = 0"
        return "{}"

    # ---- header ----
    def struct_body(self, name, fields, indent):
        pad = " " * indent
        out = [f"{pad}struct {name} {{"]
        for field in fields:
            notes = []
            if not field.versions.covers_all(self.m.versions):
                notes.append(str(field.versions))
            if field.tag is not None:
                notes.append(f"tagged {field.tag}")
            nullable = field.nullable_versions()
            if nullable is not None and not field.nullable_always:
                notes.append(f"null {nullable}")
            if field.comment:
                notes.append(field.comment)
            line = f"{pad}  {self.cpp_type(field)} {field.name}{self.initializer(field)};"
            if notes:
                line += f"  // {'; '.join(notes)}"
            out.append(line)
        out.append(f"{pad}  bool operator==(const {name}&) const = default;")
        return out

    def header_struct(self):
        m = self.m
        out = [f"struct {m.name} {{"]
        out.append(f"  static constexpr ApiKey kApiKey = ApiKey::k{m.api};")
        out.append(f"  static constexpr std::int16_t kMinVersion = {m.versions.low};")
        out.append(f"  static constexpr std::int16_t kMaxVersion = {m.versions.high};")
        flexible = m.flexible.low if m.flexible is not None else -1
        out.append(f"  // The first flexible (KIP-482) version; -1 when none is.")
        out.append(f"  static constexpr std::int16_t kFirstFlexibleVersion = {flexible};")
        out.append("")
        for struct in m.structs:
            out += self.struct_body(struct.name, struct.fields, 2)[:-1]
            out.append(f"    bool operator==(const {struct.name}&) const = default;")
            out.append("  };")
        body = self.struct_body(m.name, m.fields, 0)
        out += body[1:-1]
        out.append("")
        out.append(f"  static Result<{m.name}> decode(WireReader& reader, std::int16_t version);")
        out.append("  void encode(WireWriter& writer, std::int16_t version) const;")
        out.append(f"  bool operator==(const {m.name}&) const = default;")
        out.append("};")
        return out

    # ---- decode ----
    def min_bytes(self, fields):
        """A lower bound of an element's encoded size in any version."""
        total = 0
        for field in fields:
            if field.tag is not None or not field.versions.covers_all(self.m.versions):
                continue
            if field.is_array or field.base in VARIABLE:
                total += 1
            elif field.is_struct:
                total += 1 if self.is_optional(field) else self.min_bytes(field.children)
            else:
                total += PRIMITIVES[field.base][1]
        return max(total, 1)

    def read_value(self, field, r):
        """An expression reading one (non-array) value of field's base type."""
        base = field.base
        nullable = field.nullable_versions()
        owned = self.m.owned
        if field.is_struct:
            return f"read_{field.base}({r}, version, flexible)"
        simple = {
            "int8": f"{r}.read_int8()", "int16": f"{r}.read_int16()",
            "uint16": f"static_cast<std::uint16_t>({r}.read_int16())",
            "int32": f"{r}.read_int32()", "int64": f"{r}.read_int64()",
            "float64": f"std::bit_cast<double>({r}.read_int64())", "bool": f"{r}.read_bool()",
            "uuid": f"{r}.read_uuid()", "error": f"static_cast<ErrorCode>({r}.read_int16())",
        }
        if base in simple:
            return simple[base]
        if base == "string":
            plain = f"(flexible ? {r}.read_compact_string() : {r}.read_string())"
            return f"std::string({plain})" if owned else plain
        if base in ("bytes", "records"):
            plain = f"(flexible ? {r}.read_compact_bytes() : {r}.read_bytes())"
            if base == "records" and owned:
                return f"std::vector<ByteView>{{{plain}}}"
            return f"to_owned_bytes({plain})" if owned and base == "bytes" else plain
        raise SchemaError(f"{field.line}: cannot read {base}")

    def read_nullable_value(self, field, r):
        base = field.base
        owned = self.m.owned
        if base == "string":
            plain = f"(flexible ? {r}.read_compact_nullable_string() : {r}.read_nullable_string())"
            return f"to_owned_string({plain})" if owned else plain
        if base in ("bytes", "records"):
            plain = f"(flexible ? {r}.read_compact_nullable_bytes() : {r}.read_nullable_bytes())"
            if base == "records" and owned:
                return f"gathered({plain})"
            return f"to_owned_bytes({plain})" if owned and base == "bytes" else plain
        if field.is_struct:
            return (f"({r}.read_int8() < 0 ? std::optional<{field.base}>() : "
                    f"std::optional<{field.base}>(read_{field.base}({r}, version, flexible)))")
        raise SchemaError(f"{field.line}: a nullable {base} is not supported")

    def decode_field(self, field, target, r, indent):
        pad = " " * indent
        nullable = field.nullable_versions()
        out = []
        if field.is_array:
            count = f"count_{field.name}"
            min_bytes = self.min_bytes(field.children) if field.is_struct else (
                1 if field.base in VARIABLE else PRIMITIVES[field.base][1])
            out.append(f"{pad}{{")
            out.append(f"{pad}  const std::int32_t {count} = flexible ? {r}.read_compact_array_length({min_bytes})"
                       f" : {r}.read_array_length({min_bytes});")
            elem_type = self.value_type(field)
            vec = f"{target}"
            if nullable is not None:
                cond = nullable.condition("version", field.versions)
                if cond:
                    out.append(f"{pad}  if ({count} < 0 && {cond}) {{")
                else:
                    out.append(f"{pad}  if ({count} < 0) {{")
                out.append(f"{pad}    {target}.reset();")
                out.append(f"{pad}  }} else {{")
                out.append(f"{pad}    {target}.emplace();")
                vec = f"(*{target})"
                inner = pad + "    "
            else:
                inner = pad + "  "
            out.append(f"{inner}reserve_elements({vec}, {count});")
            element = self.read_value(field, r)
            out.append(f"{inner}for (std::int32_t i = 0; i < {count} && {r}.ok(); ++i) {{")
            out.append(f"{inner}  {vec}.push_back({element});")
            out.append(f"{inner}}}")
            if nullable is not None:
                out.append(f"{pad}  }}")
            out.append(f"{pad}}}")
            return out
        if nullable is not None:
            cond = nullable.condition("version", field.versions)
            value_nullable = self.read_nullable_value(field, r)
            if field.is_struct and cond:
                value_plain = f"{self.read_value(field, r)}"
                out.append(f"{pad}if ({cond}) {{")
                out.append(f"{pad}  {target} = {value_nullable};")
                out.append(f"{pad}}} else {{")
                out.append(f"{pad}  {target} = {value_plain};")
                out.append(f"{pad}}}")
                return out
            if cond:
                value_plain = self.read_value(field, r)
                if field.base == "records" and self.m.owned:
                    pass
                out.append(f"{pad}if ({cond}) {{")
                out.append(f"{pad}  {target} = {value_nullable};")
                out.append(f"{pad}}} else {{")
                out.append(f"{pad}  {target} = {value_plain};")
                out.append(f"{pad}}}")
                return out
            out.append(f"{pad}{target} = {value_nullable};")
            return out
        out.append(f"{pad}{target} = {self.read_value(field, r)};")
        return out

    def decode_struct(self, name, fields, is_top):
        out = []
        sig = f"{name} read_{name}(WireReader& reader, std::int16_t version, bool flexible)"
        out.append(f"{sig} {{")
        out.append(f"  {name} value;")
        uses_version = False
        body = []
        for field in fields:
            if field.tag is not None:
                continue
            cond = field.versions.condition("version", self.m.versions)
            lines = self.decode_field(field, f"value.{field.name}", "reader", 4 if cond else 2)
            if cond:
                uses_version = True
                body.append(f"  if ({cond}) {{")
                body += lines
                body.append("  }")
            else:
                body += lines
        tagged = sorted((f for f in fields if f.tag is not None), key=lambda f: f.tag)
        body.append("  if (flexible) {")
        body.append("    const std::uint32_t tagged_count = reader.read_unsigned_varint();")
        body.append("    for (std::uint32_t i = 0; i < tagged_count && reader.ok(); ++i) {")
        body.append("      const std::uint32_t tag = reader.read_unsigned_varint();")
        if tagged:
            body.append("      WireReader field_reader(reader.read_raw(reader.read_unsigned_varint()));")
            body.append("      switch (tag) {")
            for field in tagged:
                cond = field.versions.condition("version", self.m.versions)
                body.append(f"        case {field.tag}:")
                lines = self.decode_field(field, f"value.{field.name}", "field_reader", 12 if cond else 10)
                if cond:
                    uses_version = True
                    body.append(f"          if ({cond}) {{")
                    body += lines
                    body.append("          }")
                else:
                    body += lines
                body.append("          break;")
            body.append("        default:")
            body.append("          break;  // unknown tags are skipped")
            body.append("      }")
            body.append("      if (!field_reader.ok()) reader.fail();")
        else:
            body.append("      static_cast<void>(tag);")
            body.append("      reader.read_raw(reader.read_unsigned_varint());  // no known tags: skipped")
        body.append("    }")
        body.append("  }")
        if any(re.search(r"\bversion\b", line) for line in body):
            uses_version = True
        if not uses_version:
            out.append("  static_cast<void>(version);")
        out += body
        out.append("  return value;")
        out.append("}")
        return out

    # ---- encode ----
    def write_value(self, field, expr, w):
        base = field.base
        if field.is_struct:
            return [f"write_{field.base}({w}, {expr}, version, flexible);"]
        simple = {
            "int8": f"{w}.write_int8({expr});", "int16": f"{w}.write_int16({expr});",
            "uint16": f"{w}.write_int16(static_cast<std::int16_t>({expr}));",
            "int32": f"{w}.write_int32({expr});", "int64": f"{w}.write_int64({expr});",
            "float64": f"{w}.write_int64(std::bit_cast<std::int64_t>({expr}));",
            "bool": f"{w}.write_bool({expr});", "uuid": f"{w}.write_uuid({expr});",
            "error": f"{w}.write_int16(static_cast<std::int16_t>({expr}));",
        }
        if base in simple:
            return [simple[base]]
        if base == "string":
            return [f"if (flexible) {w}.write_compact_string({expr}); else {w}.write_string({expr});"]
        if base == "bytes":
            return [f"if (flexible) {w}.write_compact_bytes({expr}); else {w}.write_bytes({expr});"]
        if base == "records":
            if self.m.owned:
                return [f"write_gathered({w}, {expr}, flexible);"]
            return [f"if (flexible) {w}.write_compact_bytes({expr}); else {w}.write_bytes({expr});"]
        raise SchemaError(f"{field.line}: cannot write {base}")

    def write_nullable_value(self, field, expr, w, cond):
        """Writes an optional value; in versions outside `cond` (not nullable there), a null
        is written as the type's empty value."""
        base = field.base
        out = []
        if base == "string":
            view = f"optional_view({expr})" if self.m.owned else expr
            if cond:
                out.append(f"if ({cond}) {{")
                out.append(f"  if (flexible) {w}.write_compact_nullable_string({view}); else {w}.write_nullable_string({view});")
                out.append("} else {")
                out.append(f"  const std::string_view text = {expr} ? std::string_view(*{expr}) : std::string_view();")
                out.append(f"  if (flexible) {w}.write_compact_string(text); else {w}.write_string(text);")
                out.append("}")
            else:
                out.append(f"if (flexible) {w}.write_compact_nullable_string({view}); else {w}.write_nullable_string({view});")
            return out
        if base in ("bytes", "records"):
            if base == "records" and self.m.owned:
                return [f"write_gathered({w}, {expr}, flexible);"]
            view = f"optional_bytes({expr})" if self.m.owned else expr
            out.append(f"if (flexible) {w}.write_compact_nullable_bytes({view}); else {w}.write_nullable_bytes({view});")
            return out
        if field.is_struct:
            out.append(f"if ({expr}) {{")
            if cond:
                out.append(f"  if ({cond}) {w}.write_int8(1);")
            else:
                out.append(f"  {w}.write_int8(1);")
            out.append(f"  write_{field.base}({w}, *{expr}, version, flexible);")
            out.append("} else {")
            if cond:
                out.append(f"  if ({cond}) {w}.write_int8(-1); else write_{field.base}({w}, {{}}, version, flexible);")
            else:
                out.append(f"  {w}.write_int8(-1);")
            out.append("}")
            return out
        raise SchemaError(f"{field.line}: a nullable {base} is not supported")

    def encode_field(self, field, expr, w):
        nullable = field.nullable_versions()
        cond = nullable.condition("version", field.versions) if nullable is not None else ""
        out = []
        if field.is_array:
            vec = expr
            if nullable is not None:
                out.append(f"if (!{expr}) {{")
                # Null where the version has no null array: written empty.
                null_count = f"({cond} ? -1 : 0)" if cond else "-1"
                out.append(f"  if (flexible) {w}.write_compact_array_length({null_count}); "
                           f"else {w}.write_array_length({null_count});")
                out.append("} else {")
                vec = f"(*{expr})"
                inner = "  "
            else:
                inner = ""
            out.append(f"{inner}{w}.write_count({vec}.size(), flexible);")
            out.append(f"{inner}for (const auto& element : {vec}) {{")
            out += [f"{inner}  {line}" for line in self.write_value(field, "element", w)]
            out.append(f"{inner}}}")
            if nullable is not None:
                out.append("}")
            return out
        if nullable is not None:
            return self.write_nullable_value(field, expr, w, cond)
        return self.write_value(field, expr, w)

    def encode_struct(self, name, fields):
        out = []
        out.append(f"void write_{name}(WireWriter& writer, const {name}& value, std::int16_t version, bool flexible) {{")
        body = []
        for field in fields:
            if field.tag is not None:
                continue
            cond = field.versions.condition("version", self.m.versions)
            lines = self.encode_field(field, f"value.{field.name}", "writer")
            if cond:
                body.append(f"  if ({cond}) {{")
                body += [f"    {line}" for line in lines]
                body.append("  }")
            else:
                body += [f"  {line}" for line in lines]
        tagged = sorted((f for f in fields if f.tag is not None), key=lambda f: f.tag)
        body.append("  if (flexible) {")
        if not tagged:
            body.append("    writer.write_empty_tagged_fields();")
        else:
            body.append(f"    static const {name} defaults{{}};")
            present = []
            for field in tagged:
                cond = field.versions.condition("version", self.m.versions)
                test = f"!(value.{field.name} == defaults.{field.name})"
                present.append(f"({cond}) && {test}" if cond else test)
            body.append("    std::uint32_t tagged_count = 0;")
            for test in present:
                body.append(f"    if ({test}) ++tagged_count;")
            body.append("    writer.write_unsigned_varint(tagged_count);")
            for field, test in zip(tagged, present):
                body.append(f"    if ({test}) {{")
                body.append("      std::vector<std::uint8_t> field_bytes;")
                body.append("      WireWriter field_writer(field_bytes);")
                body += [f"      {line}" for line in self.encode_field(field, f"value.{field.name}", "field_writer")]
                body.append(f"      writer.write_unsigned_varint({field.tag});")
                body.append("      write_tagged_field(writer, field_writer, field_bytes);")
                body.append("    }")
        body.append("  }")
        if not any(re.search(r"\bversion\b", line) for line in body):
            out.append("  static_cast<void>(version);")
        out += body
        out.append("}")
        return out


def flexible_condition(message):
    if message.flexible is None:
        return "false"
    return f"version >= {message.flexible.low}"


def generate(schema_path, out_dir):
    api, header_comment, constants, messages = parse_schema(schema_path)
    name = api[0]
    base = snake(name)
    source_rel = os.path.relpath(schema_path, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    h = ["// SPDX-License-Identifier: Apache-2.0", "//",
         f"// Generated by src/protocol/codegen/generate_messages.py from {source_rel}: do not edit.", "//"]
    h += [f"// {line}".rstrip() for line in header_comment]
    h += ["//",
          f"// {name} (key {api[1]}): versions {api[2].low}-{api[2].high}, "
          + (f"flexible from v{api[3].low}." if api[3] else "none flexible."),
          "// Requests view the frame they were decoded from (valid while it lives); responses own",
          "// their data, except records, which view stored batches until encode() returns.",
          "// decode() checks the version, reads every field of it and returns kInvalidRequest for a",
          "// malformed body; encode() writes the fields of the version and skips the others.",
          "// Thread-safe: plain values.",
          "#pragma once", "",
          "#include <cstdint>", "#include <optional>", "#include <string>",
          "#include <string_view>", "#include <vector>", "",
          '#include "protocol/api_key.h"', '#include "protocol/byte_view.h"',
          '#include "protocol/error_code.h"', '#include "protocol/result.h"',
          '#include "protocol/uuid.h"', '#include "protocol/wire_reader.h"',
          '#include "protocol/wire_writer.h"', "",
          "namespace kgroups::protocol {", ""]
    for constant, cpp_type, value, comment in constants:
        line = f"inline constexpr {cpp_type} {constant} = {value};"
        h.append(line + (f"  // {comment}" if comment else ""))
    if constants:
        h.append("")
    for message in messages:
        if message.comment:
            h.append(f"// {message.comment}")
        h += Emitter(message).header_struct()
        h.append("")
    h.append("}  // namespace kgroups::protocol")

    c = ["// SPDX-License-Identifier: Apache-2.0", "//",
         f"// Generated by src/protocol/codegen/generate_messages.py from {source_rel}: do not edit.",
         "", f'#include "protocol/messages/{base}.h"', "", "#include <bit>", "",
         '#include "protocol/messages/generated_codec_support.h"', "",
         "namespace kgroups::protocol {", ""]
    for message in messages:
        emitter = Emitter(message)
        codec = snake(message.name)
        c.append(f"namespace {{")
        c.append(f"namespace {codec} {{")
        c.append(f"using M = {message.name};")
        for struct in message.structs:
            c.append(f"using {struct.name} = {message.name}::{struct.name};")
        for struct in message.structs:
            c.append(f"void write_{struct.name}(WireWriter& writer, const {struct.name}& value, std::int16_t version, bool flexible);")
        c.append("")
        for struct in message.structs:
            c += emitter.decode_struct(struct.name, struct.fields, False)
            c.append("")
            c += emitter.encode_struct(struct.name, struct.fields)
            c.append("")
        c += emitter.decode_struct("M", message.fields, True)
        c.append("")
        c += emitter.encode_struct("M", message.fields)
        c.append(f"}}  // namespace {codec}")
        c.append("}  // namespace")
        c.append("")
        c.append(f"Result<{message.name}> {message.name}::decode(WireReader& reader, std::int16_t version) {{")
        c.append("  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;")
        c.append(f"  {message.name} message = {codec}::read_M(reader, version, {flexible_condition(message)});")
        c.append("  if (!reader.ok()) return ErrorCode::kInvalidRequest;")
        c.append("  return message;")
        c.append("}")
        c.append("")
        c.append(f"void {message.name}::encode(WireWriter& writer, std::int16_t version) const {{")
        c.append(f"  {codec}::write_M(writer, *this, version, {flexible_condition(message)});")
        c.append("}")
        c.append("")
    c.append("}  // namespace kgroups::protocol")

    os.makedirs(out_dir, exist_ok=True)
    write_if_changed(os.path.join(out_dir, f"{base}.h"), "\n".join(h) + "\n")
    write_if_changed(os.path.join(out_dir, f"{base}.cc"), "\n".join(c) + "\n")


def generate_catalog(out_dir, schema_paths):
    parsed = sorted(((parse_schema(path)[0], path) for path in schema_paths), key=lambda a: a[0][1])
    apis = [api for api, _ in parsed]
    write_if_changed(os.path.join(out_dir, "messages", "request_types.h"), request_types_header(parsed))
    write_if_changed(os.path.join(out_dir, "messages", "message_samples.h"), samples_header(parsed))
    c = ["// SPDX-License-Identifier: Apache-2.0", "//",
         "// Generated by src/protocol/codegen/generate_messages.py from src/protocol/schema/: do not edit.",
         "", '#include "protocol/api_catalog.h"', "", "#include <array>", "",
         "namespace kgroups::protocol {", "", "namespace {", "",
         "constexpr std::array<ApiCodec, %d> kCodecs{{" % len(apis)]
    for name, key, versions, flexible in apis:
        c.append(f"    {{ApiKey::k{name}, {versions.low}, {versions.high}, "
                 f"{flexible.low if flexible else -1}}},")
    c += ["}};", "", "}  // namespace", "",
          "std::span<const ApiCodec> api_codecs() { return kCodecs; }", "",
          "}  // namespace kgroups::protocol"]
    write_if_changed(os.path.join(out_dir, "api_catalog.cc"), "\n".join(c) + "\n")


def sample_value(emitter, field, version_var, depth):
    """A C++ expression for a non-default value of field's (non-array) base type."""
    base = field.base
    if field.is_struct:
        return f"sample_{field.base}({version_var}, nulls)"
    values = {"int8": "7", "int16": "-3", "uint16": "65000", "int32": "123456", "int64": "-9876543210",
              "float64": "2.5", "bool": "true", "uuid": "Uuid{0xC0, 0xFF, 0xEE, 15}",
              "error": "ErrorCode::kUnknownMemberId"}
    if base in values:
        return values[base]
    if base == "string":
        return f'"{field.name}-\u00e9"' if emitter.m.owned else f'std::string_view("{field.name}-x")'
    if base == "bytes":
        return "std::vector<std::uint8_t>{1, 2, 3}" if emitter.m.owned else "ByteView(kSampleBytes)"
    if base == "records":
        return "std::vector<ByteView>{ByteView(kSampleBytes)}" if emitter.m.owned else "ByteView(kSampleBytes)"
    raise SchemaError(f"{field.line}: no sample for {base}")


def sample_struct(emitter, name, qualified, fields):
    m = emitter.m
    out = [f"inline {qualified} sample_{name}([[maybe_unused]] std::int16_t version, [[maybe_unused]] bool nulls) {{",
           f"  {qualified} value;"]
    for field in fields:
        cond = field.versions.condition("version", m.versions)
        nullable = field.nullable_versions()
        null_cond = nullable.condition("version", field.versions) if nullable is not None else None
        element = sample_value(emitter, field, "version", 0)
        if field.is_array:
            elem_type = emitter.value_type(field)
            value = f"std::vector<{elem_type}>{{{element}, {element}}}"
        else:
            value = element
        lines = []
        if nullable is not None and not (field.base == "records" and m.owned):
            null_when = f"nulls && ({null_cond})" if null_cond else "nulls"
            lines.append(f"if ({null_when}) {{")
            lines.append(f"  value.{field.name} = std::nullopt;")
            lines.append("} else {")
            lines.append(f"  value.{field.name} = {value};")
            lines.append("}")
        else:
            lines.append(f"value.{field.name} = {value};")
        if cond:
            out.append(f"  if ({cond}) {{")
            out += [f"    {line}" for line in lines]
            out.append("  }")
        else:
            out += [f"  {line}" for line in lines]
    out.append("  return value;")
    out.append("}")
    return out


def samples_header(parsed):
    h = ["// SPDX-License-Identifier: Apache-2.0", "//",
         "// Generated by src/protocol/codegen/generate_messages.py from src/protocol/schema/: do not edit.",
         "//",
         "// Test-only: sample_<Message>(version, nulls) builds a message with every field of that",
         "// version set to a value other than its default (nullable fields null when `nulls`), so a",
         "// round trip through encode() and decode() exercises every field of every version.",
         "#pragma once", "", "#include <cstdint>", "#include <optional>", "#include <string_view>",
         "#include <vector>", "", '#include "protocol/messages/request_types.h"', "",
         "namespace kgroups::protocol::samples {", "",
         "inline constexpr std::uint8_t kSampleBytes[] = {0xDE, 0xAD, 0xBE, 0xEF};", ""]
    for api, path in parsed:
        _, _, _, messages = parse_schema(path)
        for message in messages:
            emitter = Emitter(message)
            h.append(f"namespace {snake(message.name)} {{")
            for struct in message.structs:
                h.append(f"using {struct.name} = {message.name}::{struct.name};")
            for struct in message.structs:
                h += sample_struct(emitter, struct.name, f"{message.name}::{struct.name}", struct.fields)
            h += sample_struct(emitter, message.name, message.name, message.fields)
            h.append(f"}}  // namespace {snake(message.name)}")
            h.append("")
    h.append("// The sample of message type M.")
    h.append("template <class M>")
    h.append("M sample(std::int16_t version, bool nulls);")
    for api, path in parsed:
        for side in ("Request", "Response"):
            name = api[0] + side
            h += ["template <>", f"inline {name} sample<{name}>(std::int16_t version, bool nulls) {{",
                  f"  return {snake(name)}::sample_{name}(version, nulls);", "}"]
    h += ["", "}  // namespace kgroups::protocol::samples", ""]
    return "\n".join(h)


def request_types_header(parsed):
    h = ["// SPDX-License-Identifier: Apache-2.0", "//",
         "// Generated by src/protocol/codegen/generate_messages.py from src/protocol/schema/: do not edit.",
         "//",
         "// The request and response message types of this codec, by API key, for code that must",
         "// treat every message alike (the fuzz target, the golden-frame and round-trip tests). A",
         "// visitor is a generic lambda called with a null pointer of the message type:",
         "//   visit_request_type(key, [](auto* tag) {",
         "//     using Request = std::remove_pointer_t<decltype(tag)>; ... });",
         "// Thread-safe: constants only.",
         "#pragma once", "", '#include "protocol/api_key.h"']
    for api, path in parsed:
        h.append(f'#include "protocol/messages/{os.path.splitext(os.path.basename(path))[0]}.h"')
    h += ["", "namespace kgroups::protocol {", ""]
    for side in ("Request", "Response"):
        h += [f"// Calls visitor(static_cast<{side}*>(nullptr)) for the {side.lower()} type of `key` and returns",
              "// true; returns false (without calling it) for a key this codec has no schema for.",
              "template <class Visitor>",
              f"bool visit_{side.lower()}_type(ApiKey key, Visitor&& visitor) {{",
              "  switch (static_cast<int>(key)) {"]
        for api, _ in parsed:
            h += [f"    case {api[1]}:", f"      visitor(static_cast<{api[0]}{side}*>(nullptr));",
                  "      return true;"]
        h += ["    default:", "      return false;", "  }", "}", ""]
    h.append("// Every API key that visit_request_type() and visit_response_type() know, in key order.")
    h.append("inline constexpr ApiKey kRequestTypeKeys[] = {")
    h += [f"    ApiKey::k{api[0]}," for api, _ in parsed]
    h += ["};", "", "}  // namespace kgroups::protocol", ""]
    return "\n".join(h)


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def main(argv):
    try:
        if len(argv) >= 3 and argv[1] == "--catalog":
            generate_catalog(argv[2], argv[3:])
        elif len(argv) == 3:
            generate(argv[1], argv[2])
        else:
            print(__doc__ or "usage: generate_messages.py <schema> <out-dir>", file=sys.stderr)
            return 2
    except SchemaError as error:
        print(f"generate_messages.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
