"""Every write to tables, seats, rounds and devices, one module per concept (DESIGN 2: services own writes)."""
