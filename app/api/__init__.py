"""The HTTP layer: one router per resource, thin handlers over ``app.services``."""
