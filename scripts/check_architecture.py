#!/usr/bin/env python3
"""The dependency rules of docs/ARCHITECTURE.md, checked on the package's manifest.

    swift package dump-package | scripts/check_architecture.py   check the package (run from its root)
    scripts/check_architecture.py --self-test                    prove each rule alone

Everything is derived from the targets' paths, so the check reads the layout it is given:
Sources/Client/<Region>/... (Region: Kernel, Services, Modules, App, deck), Sources/Server,
Sources/Shared (Contracts under it), Sources/Features/<Feature>/<Part>/... (Part: Rules, Commands,
Server, API, ...), Tests/<Feature>Tests.
A problem is printed as `architecture[<rule id>]: ...`. Python 3 standard library only.
"""
import json
import os
import re
import sys
import tempfile

RULES = {
    "feature-commands": "a feature target depends on another feature's Commands target",
    "repl": "a feature target depends on DeckREPL",
    "rules": "a Rules target depends on a target that is not a Rules target or the pure value library, or that "
    "library depends on anything",
    "commands-sandbox": "a Commands target depends on a part of the sandbox server",
    "sandbox-client": "a feature's Server target depends on client code (Sources/Client, a Commands target)",
    "core-feature": "a Client or Server target other than the two that assemble features (Sources/Client/App, "
    "SandboxApp) depends on a feature",
    "shared": "a Shared target depends on a Client, Server or Features target",
    "contract": "a contract (API) target depends on anything but the OpenAPIRuntime and HTTPTypes products",
    "products": "a target other than DeckHTTPTransport, the server's and the tests' depends on "
    "NIO, AsyncHTTPClient, SQLKit and its drivers, Hummingbird, ServiceLifecycle or JWTKit",
    "client-server-target": "the dependency closure of `deck` holds a part of the sandbox server",
    "client-server-product": "the dependency closure of `deck` holds a server product (SQLKit, Hummingbird, ...)",
    "server-client": "the dependency closure of `deck-sandbox` holds client code (DeckConfig, DeckAuth, "
    "DeckNetworking, anything in Sources/Client or a feature's Commands)",
    "client-foundation": "a target in the dependency closure of `deck` imports Foundation, or links a product that "
    "does (the client links FoundationEssentials only: no ICU and its 34 MB of data)",
    "undeclared-import": "a target imports a module it does not declare",
    "cross-feature": "a target of one feature depends on another's, and docs/ARCHITECTURE.md does not list it",
    "edge-list": "docs/ARCHITECTURE.md lists a cross-feature edge the manifest does not have",
    "feature-parts": "a feature's folders (API/*, System/*, Data/*.csv, Tests/<Feature>Tests) and its "
    "Feature(...) line in Package.swift disagree",
}

# Modules of the toolchain and the OS: importable without a declared dependency.
SYSTEM_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc",
    "Musl", "Darwin", "os", "Synchronization", "Observation", "RegexBuilder", "Testing", "XCTest",
}
# Package products whose modules are not the one module named like the product (read from
# .build/checkouts/*/Package.swift): every other product vends the module of its name.
PRODUCT_MODULES = {"_NIOFileSystem": {"_NIOFileSystem", "NIOFileSystem"}}
# The targets that assemble the features into a program: the client's registry and the server's.
ASSEMBLERS = {"Sources/Client/App", "Sources/Server/SandboxApp"}
# The library of pure values (no I/O, no dependency) that Rules, client and server share.
PURE_VALUES = "DeckValues"
TRANSPORT = "DeckHTTPTransport"  # the one client target that may link NIO and AsyncHTTPClient
# Foundation's modules beyond FoundationEssentials (they bring ICU), and the products the client
# could link that import them.
FULL_FOUNDATION = {"Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML"}
FOUNDATION_PRODUCTS = {"Yams", "OpenAPIKit", "OpenAPIKit30", "OpenAPIKitCompat", "NIOFoundationCompat",
                       "HTTPTypesFoundation", "CryptoExtras"}
# What generated contract code imports: the OpenAPI runtime and the HTTP types it is built on.
CONTRACT_PRODUCTS = {"OpenAPIRuntime", "HTTPTypes"}


def is_server_product(product):
    return product.startswith(("Hummingbird", "OpenAPIHummingbird", "SQL", "Postgres")) or product in {
        "ServiceLifecycle", "UnixSignals", "JWTKit"}


def is_heavy_product(product):
    return is_server_product(product) or product.startswith(("NIO", "_NIO")) or product in {
        "AsyncHTTPClient"}


def module_name(name):
    return name.replace("-", "_")


class Manifest:
    def __init__(self, package):
        self.targets = {t["name"]: t for t in package["targets"]}
        self.features = {p[2] for p in map(self.parts, self.targets) if p[:2] == ["Sources", "Features"] and len(p) > 2}

    def path(self, name):
        target = self.targets[name]
        default = {"test": "Tests", "plugin": "Plugins"}.get(target.get("type"), "Sources")
        return (target.get("path") or f"{default}/{name}").strip("/")

    def parts(self, name):
        return self.path(name).split("/")

    def area(self, name):  # Client, Server, Shared, Features; Tests, Plugins
        parts = self.parts(name)
        return parts[1] if parts[0] == "Sources" and len(parts) > 1 else parts[0]

    def feature(self, name):
        parts = self.parts(name)
        if parts[:2] == ["Sources", "Features"] and len(parts) > 2:
            return parts[2]
        if len(parts) == 2 and parts[0] == "Tests" and parts[1].removesuffix("Tests") in self.features:
            return parts[1].removesuffix("Tests")
        return None

    def region(self, name):  # Kernel, Services, Modules, App, deck of a target in Sources/Client
        parts = self.parts(name)
        return parts[2] if parts[:2] == ["Sources", "Client"] and len(parts) > 2 else None

    def part(self, name):  # Rules, Commands, Server, API, ... of a target in Sources/Features
        parts = self.parts(name)
        return parts[3] if parts[:2] == ["Sources", "Features"] and len(parts) > 3 else None

    def deps(self, name):
        for dep in self.targets[name].get("dependencies", []):
            if "target" in dep or ("byName" in dep and dep["byName"][0] in self.targets):
                yield (dep.get("target") or dep["byName"])[0]

    def products(self, name):
        for dep in self.targets[name].get("dependencies", []):
            if "product" in dep or ("byName" in dep and dep["byName"][0] not in self.targets):
                yield (dep.get("product") or dep["byName"])[0]

    def is_test(self, name):
        return self.targets[name].get("type") == "test" or self.area(name) == "Tests"

    def is_server(self, name):
        return self.area(name) == "Server" or self.part(name) == "Server"

    def is_client(self, name):
        return self.area(name) == "Client" or self.part(name) == "Commands"

    def is_contract(self, name):
        return self.parts(name)[:3] == ["Sources", "Shared", "Contracts"] or self.part(name) == "API"

    def closure(self, name):
        seen, stack = set(), [name]
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(self.deps(current))
        return seen

    def declared_modules(self, name):
        modules = SYSTEM_MODULES | {module_name(name)} | {module_name(dep) for dep in self.deps(name)}
        for product in self.products(name):
            modules |= PRODUCT_MODULES.get(product, {module_name(product)})
        if self.targets[name].get("type") == "plugin":
            modules.add("PackagePlugin")
        return modules


STRING_START = re.compile(r'(#*)("""|")')


def swift_code(text):
    """The text with comments and string literals blanked out, lines kept (so a Python script in
    a multi-line string literal or an import in a comment is no import)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = n if text.find("\n", i) < 0 else text.find("\n", i)
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                step = 2 if text.startswith(("/*", "*/"), i) else 1
                depth += {"/*": 1, "*/": -1}.get(text[i:i + step], 0)
                if text[i] == "\n":
                    out.append("\n")
                i += step
        elif text[i] in '#"' and (quote := STRING_START.match(text, i)):
            hashes, delimiter = quote.groups()
            closing, i = delimiter + hashes, quote.end()
            while i < n and not text.startswith(closing, i):
                if text[i] == "\n":
                    out.append("\n")
                    if delimiter == '"':
                        break
                i += 2 if text[i] == "\\" and not hashes else 1
            i += len(closing)
            out.append(" ")
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


IMPORT = re.compile(r"^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open)\s+)?"
                    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func|actor)\s+)?(\w+)", re.M)


def imports(manifest, name, root):
    found = set()
    for folder, _, files in os.walk(os.path.join(root, manifest.path(name))):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(folder, file), encoding="utf-8", errors="replace") as source:
                    found |= set(IMPORT.findall(swift_code(source.read())))
    return found


def allowed_edges(doc):
    """The edges listed under '## Allowed cross-feature edges': `- A → B, C: why`."""
    section = re.search(r"^## Allowed cross-feature edges\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    if not section:
        raise ValueError("docs/ARCHITECTURE.md has no '## Allowed cross-feature edges' section")
    edges = set()
    for line in section.group(1).splitlines():
        if line.startswith("- "):
            item = re.match(r"- `?([\w-]+)`?\s*(?:→|->)\s*([`\w\s,-]+):", line)
            if not item:
                raise ValueError(f"docs/ARCHITECTURE.md: cannot read the edge '{line}' (write '- A → B, C: why')")
            edges |= {(item.group(1), dep.strip(" `")) for dep in item.group(2).split(",")}
    return edges


def folders(path):
    """The subfolders of a folder, sorted (none when it does not exist)."""
    if not os.path.isdir(path):
        return []
    return sorted(n for n in os.listdir(path) if not n.startswith(".") and os.path.isdir(os.path.join(path, n)))


def feature_parts(m, root):
    """Where a feature's folders and its `Feature(...)` line disagree, as messages. The manifest
    lists no folder (SwiftPM would keep a stale listing), so the line names the optional parts."""
    problems = []
    on_disk = set(folders(os.path.join(root, "Sources/Features")))
    for feature in sorted(on_disk - m.features):
        problems.append(f"Sources/Features/{feature} has no targets: add Feature(name: \"{feature}\") to "
                        "Package.swift's `features`, or remove the folder")
    for feature in sorted(m.features):
        folder = f"Sources/Features/{feature}"
        for part, argument in (("API", "contracts"), ("System", "systemLibraries")):
            found = set(folders(os.path.join(root, folder, part)))
            declared = {m.parts(name)[4] for name in m.targets
                        if m.parts(name)[:4] == ["Sources", "Features", feature, part] and len(m.parts(name)) > 4}
            for name in sorted(found - declared):
                problems.append(f"{folder}/{part}/{name} is a folder, but {feature}'s Feature(...) line in "
                                f"Package.swift does not name it: add \"{name}\" to its {argument}")
            for name in sorted(declared - found):
                problems.append(f"{feature}'s Feature(...) line in Package.swift names \"{name}\" in its {argument}, "
                                f"but {folder}/{part}/{name} does not exist: remove it from the line")
        data = os.path.join(root, folder, "Data")
        has_data = os.path.isdir(data) and any(n.endswith(".csv") for n in os.listdir(data))
        embeds = any(m.part(name) == "Server" and m.feature(name) == feature
                     and "EmbedData" in json.dumps(m.targets[name].get("pluginUsages") or [])
                     for name in m.targets)
        if has_data != embeds:
            problems.append(f"{folder}/Data " + ("holds *.csv files, but {0}'s Feature(...) line does not say "
                            "`data: true`" if has_data else "holds no *.csv file, but {0}'s Feature(...) line "
                            "says `data: true`").format(feature))
        has_tests = os.path.isdir(os.path.join(root, "Tests", f"{feature}Tests"))
        tested = any(m.path(name) == f"Tests/{feature}Tests" for name in m.targets)
        if has_tests != tested:
            problems.append(f"Tests/{feature}Tests " + ("exists, but {0}'s Feature(...) line does not say "
                            "`tests: true`" if has_tests else "does not exist, but {0}'s Feature(...) line says "
                            "`tests: true`").format(feature))
    return problems


def check(package, root, allowed):
    """Every problem of the manifest, as (rule id, message)."""
    m, problems = Manifest(package), []

    def report(rule, message):
        problems.append((rule, message))

    if "deck" in m.targets:
        for name in sorted(m.closure("deck")):
            if m.is_server(name):
                report("client-server-target", f"the client deck links {name}, a part of the sandbox server "
                       "(it belongs in deck-sandbox)")
            for product in m.products(name):
                if is_server_product(product):
                    report("client-server-product", f"the client deck links the server product {product} "
                           f"(through {name})")
                if product in FOUNDATION_PRODUCTS:
                    report("client-foundation", f"the client deck links {product} (through {name}), which "
                           "imports Foundation")
            for module in sorted(imports(m, name, root) & FULL_FOUNDATION):
                report("client-foundation", f"{name} imports {module}; the client imports FoundationEssentials "
                       "(and DeckSupport's text helpers) instead")
    if "deck-sandbox" in m.targets:
        for name in sorted(m.closure("deck-sandbox")):
            if m.is_client(name):
                report("server-client", f"the server deck-sandbox links {name}, client code (the server reads "
                       "and writes none of deck's configuration; what both programs need goes in Sources/Shared)")
    for name in sorted(m.targets):
        mine, part, production = m.feature(name), m.part(name), not m.is_test(name)
        for dep in m.deps(name):
            theirs = m.feature(dep)
            if mine and production and dep == "DeckREPL":
                report("repl", f"{name} depends on DeckREPL; use DeckCore (LineReading, the terminal kit) instead")
            if mine and production and theirs and theirs != mine and m.part(dep) == "Commands":
                report("feature-commands", f"{name} (feature {mine}) depends on {dep}, the Commands of feature "
                       f"{theirs}; share it through Core or {theirs}'s Rules target")
            if mine and theirs and theirs != mine and (name, dep) not in allowed:
                report("cross-feature", f"{name} (feature {mine}) depends on {dep} (feature {theirs}), an edge "
                       "docs/ARCHITECTURE.md does not list under 'Allowed cross-feature edges'")
            if part == "Rules" and m.part(dep) != "Rules" and dep != PURE_VALUES:
                report("rules", f"{name} is pure spec logic but depends on {dep}")
            if name == PURE_VALUES:
                report("rules", f"{name} holds pure values for Rules but depends on {dep}")
            if part == "Commands" and m.is_server(dep):
                report("commands-sandbox", f"{name} (a client) depends on {dep}, a part of the sandbox server")
            if part == "Server" and m.is_client(dep):
                report("sandbox-client", f"{name} (a part of the sandbox server) depends on {dep}, client code")
            if m.area(name) in ("Client", "Server") and theirs and m.path(name) not in ASSEMBLERS:
                report("core-feature", f"{name} ({m.path(name)}) depends on the feature target {dep}; only "
                       "the client's App (Sources/Client/App) and the server program (SandboxApp) assemble features")
            if m.area(name) == "Shared" and m.area(dep) in ("Client", "Server", "Features"):
                report("shared", f"{name} (Shared) depends on {dep} ({m.path(dep)})")
            if m.is_contract(name):
                report("contract", f"{name} is a contract; it depends on OpenAPIRuntime and HTTPTypes only, not on {dep}")
        for product in m.products(name):
            if m.is_contract(name) and product not in CONTRACT_PRODUCTS:
                report("contract", f"{name} is a contract; it depends on OpenAPIRuntime and HTTPTypes only, not on {product}")
            exempt = name == TRANSPORT or m.is_server(name) or m.is_test(name) or m.is_contract(name)
            if is_heavy_product(product) and not exempt:
                report("products", f"{name} depends on {product}; only {TRANSPORT} (the client's HTTP "
                       "transport) and the sandbox server link NIO, AsyncHTTPClient, SQLKit and Hummingbird")
        for module in sorted(imports(m, name, root) - m.declared_modules(name)):
            report("undeclared-import", f"{name} imports {module} but does not declare it; add it to the "
                   "target's dependencies in Package.swift")
    for message in feature_parts(m, root):
        report("feature-parts", message)
    for source, dep in sorted(allowed):
        if source not in m.targets or dep not in m.deps(source):
            report("edge-list", f"docs/ARCHITECTURE.md allows {source} → {dep}, but the manifest has no such "
                   "dependency; remove the line or add the dependency")
    return problems


def self_test():
    """Each rule alone: a clean manifest passes, and each change to it breaks exactly one rule."""
    def target(name, path, *deps, products=(), kind="regular"):
        return {"name": name, "path": path, "type": kind, "dependencies": [{"byName": [d, None]} for d in deps]
                + [{"product": [p, "package", None, None]} for p in products]}

    a, b, c = "Sources/Features/A", "Sources/Features/B", "Sources/Features/C"
    clean = [
        target(PURE_VALUES, f"Sources/Shared/{PURE_VALUES}"),
        target("DeckSupport", "Sources/Shared/DeckSupport"),
        target("DeckCore", "Sources/Client/Kernel/DeckCore", "DeckSupport", products=["ArgumentParser"]),
        target("DeckREPL", "Sources/Client/Kernel/DeckREPL", "DeckCore"),
        target("DeckConfig", "Sources/Client/Services/DeckConfig", "DeckSupport"),
        target(TRANSPORT, f"Sources/Client/Services/{TRANSPORT}", products=["AsyncHTTPClient", "NIOCore"]),
        target("DeckLive", "Sources/Client/Kernel/DeckLive", "DeckCore", TRANSPORT),
        target("AuthAPI", "Sources/Shared/Contracts/AuthAPI", products=["OpenAPIRuntime"]),
        target("ARules", f"{a}/Rules", PURE_VALUES),
        target("AAPI", f"{a}/API/AAPI", products=["OpenAPIRuntime"]),
        target("CQR", f"{a}/System/CQR", kind="system-target"),
        target("ACommands", f"{a}/Commands", "DeckCore", "ARules", "AAPI", "CQR", products=["ArgumentParser"]),
        target("AServer", f"{a}/Server", "SandboxKit", "ARules", "AAPI", products=["SQLKit"]),
        target("BRules", f"{b}/Rules", "ARules"),
        target("BCommands", f"{b}/Commands", "DeckCore", "BRules"),
        target("BServer", f"{b}/Server", "SandboxKit", "BRules", "AServer"),
        target("CRules", f"{c}/Rules"),
        target("CCommands", f"{c}/Commands", "DeckCore", "CRules"),  # in no program
        target("CServer", f"{c}/Server", "SandboxKit", "CRules"),  # in no program
        target("SandboxKit", "Sources/Server/SandboxKit", "AuthAPI"),
        target("SandboxApp", "Sources/Server/SandboxApp", "SandboxKit", "AServer", "BServer",
               products=["Hummingbird"]),
        target("deck-sandbox", "Sources/Server/deck-sandbox", "SandboxApp", kind="executable"),
        target("SandboxModule", "Sources/Client/Modules/SandboxModule", "DeckCore"),
        target("DeckApp", "Sources/Client/App", "DeckCore", "DeckREPL", "SandboxModule", "ACommands", "BCommands"),
        target("deck", "Sources/Client/deck", "DeckApp", "DeckLive", kind="executable"),
        target("ATests", "Tests/ATests", "ACommands", "AServer", products=["SQLKit"], kind="test"),
        target("ServerTests", "Tests/ServerTests", "deck-sandbox", kind="test"),
    ]
    edges = {("BRules", "ARules"), ("BServer", "AServer")}
    files = {
        f"{a}/Commands/A.swift": '#if canImport(Glibc)\nimport Glibc\n#endif\n@preconcurrency import DeckCore\n'
        'internal import struct ARules.Rule\nimport AAPI\n  import CQR\nimport ArgumentParser\n// import Nope\n'
        '/* import Nope /* nested */\nimport Nope */\nlet s = """\nimport Nope\n"""\nlet r = #"import "Nope"#\n',
        f"{a}/Server/S.swift": "import SQLKit\npackage import SandboxKit\n",
        "Tests/ATests/T.swift": "import Testing\n@testable import ACommands\nimport SQLKit\n",
        "Tests/ServerTests/T.swift": "@testable import deck_sandbox\n",
        f"{a}/API/AAPI/openapi.yaml": "",
        f"{a}/System/CQR/module.modulemap": "",
    }

    def variant(changes=(), add_edges=(), edges_instead=None, add_files=None):
        changed = {t["name"]: t for t in changes}
        targets = [changed.pop(t["name"], t) for t in clean] + list(changed.values())
        allowed = (edges if edges_instead is None else edges_instead) | set(add_edges)
        return targets, allowed, {**files, **(add_files or {})}

    def with_dep(name, *deps, products=()):
        base = next(t for t in clean if t["name"] == name)
        extra = target(name, base["path"], *deps, products=products)["dependencies"]
        return {**base, "dependencies": base["dependencies"] + extra}

    cases = {
        "feature-commands": [variant([with_dep("BCommands", "ACommands")], add_edges={("BCommands", "ACommands")})],
        "repl": [variant([with_dep("ACommands", "DeckREPL")])],
        "rules": [variant([with_dep("ARules", "DeckSupport")]), variant([with_dep(PURE_VALUES, "DeckSupport")])],
        "commands-sandbox": [variant([with_dep("CCommands", "SandboxKit")])],
        "sandbox-client": [variant([with_dep("CServer", "DeckCore")])],
        "core-feature": [variant([with_dep("DeckCore", "ARules")]), variant([with_dep("SandboxKit", "AAPI")])],
        "shared": [variant([with_dep("DeckSupport", "DeckCore")])],
        "contract": [variant([with_dep("AAPI", "ARules")]), variant([with_dep("AuthAPI", products=["Yams"])])],
        "products": [variant([with_dep("CRules", products=["SQLKit"])]),
                     variant([with_dep("DeckCore", products=["NIOPosix"])]),
                     variant([with_dep("ACommands", products=["AsyncHTTPClient"])]),
                     variant([with_dep("SandboxModule", products=["NIOCore"])])],
        "client-server-target": [variant([with_dep("DeckLive", "SandboxKit")])],
        "client-server-product": [variant([with_dep(TRANSPORT, products=["SQLiteKit"])])],
        "server-client": [variant([with_dep("SandboxApp", "DeckConfig")])],
        "client-foundation": [variant(add_files={f"{a}/Rules/F.swift": "import Foundation\n"}),
                              variant([with_dep("DeckSupport", products=["Yams"])])],
        "undeclared-import": [variant(add_files={f"{a}/Commands/B.swift": "import Dispatch\nimport Yams\n"}),
                              variant(add_files={"Tests/ATests/U.swift": "@testable import ARules\n"})],
        "cross-feature": [variant(edges_instead={("BServer", "AServer")}),
                          variant([with_dep("ATests", "BRules")]), variant([with_dep("BCommands", "AAPI")])],
        "edge-list": [variant(add_edges={("BCommands", "AAPI")}), variant(add_edges={("BRules", "Gone")})],
        "feature-parts": [variant(add_files={f"{b}/API/BAPI/openapi.yaml": ""}),
                          variant(add_files={f"{b}/System/CB/module.modulemap": ""}),
                          variant(add_files={f"{a}/Data/table.csv": "a,b\n"}),
                          variant(add_files={"Tests/BTests/T.swift": "import Testing\n"}),
                          variant(add_files={"Sources/Features/D/Rules/D.swift": ""})],
    }
    failures = [f"a rule without a manifest that breaks it alone: {rule}" for rule in RULES if rule not in cases]
    expect = [(set(), variant())] + [({rule}, case) for rule, manifests in cases.items() for case in manifests]
    for wanted, (targets, allowed, sources) in expect:
        with tempfile.TemporaryDirectory() as root:
            for path, text in sources.items():
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), "w", encoding="utf-8") as file:
                    file.write(text)
            problems = check({"targets": targets}, root, allowed)
        if {rule for rule, _ in problems} != wanted or len(problems) != len(wanted):
            failures.append(f"expected {sorted(wanted) or 'no problem'}, got: {problems}")
    doc = ("# x\n## Allowed cross-feature edges\n\n- `B` → `A`, `C`: why\n  more why\n- D -> A: x\n"
           "## Next\n- E → F: no\n")
    if allowed_edges(doc) != {("B", "A"), ("B", "C"), ("D", "A")}:
        failures.append(f"the edge list is misread: {allowed_edges(doc)}")
    for failure in failures:
        print("architecture: self-test:", failure, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"architecture: the self-test proves each of {len(RULES)} rules alone ({len(expect) - 1} manifests)")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    with open("docs/ARCHITECTURE.md", encoding="utf-8") as doc:
        allowed = allowed_edges(doc.read())
    package = json.load(sys.stdin)
    problems = check(package, ".", allowed)
    for rule, message in problems:
        print(f"architecture[{rule}]: {message}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"architecture: {len(package['targets'])} targets follow the dependency rules")


if __name__ == "__main__":
    main()
