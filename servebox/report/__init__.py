"""Human-readable views (rich) of the typed results the verbs return."""
