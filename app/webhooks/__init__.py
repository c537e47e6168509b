"""Webhooks: signed deliveries of a tournament's events to the organizer's endpoints."""
