import KioskRules
import Testing
