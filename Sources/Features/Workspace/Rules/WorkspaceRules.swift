/// The workspace spec's pure logic (workspace-onboarding.md): routes, access, onboarding
/// payloads, invite links. No I/O.
public enum WorkspaceRules {}
