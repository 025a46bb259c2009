"""Rule-based assessments the template writers rely on; pure functions, each unit-tested."""
