import Testing
import WorkspaceRules
