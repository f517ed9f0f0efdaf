// Helpers shared by the test targets.
import AnimCore
