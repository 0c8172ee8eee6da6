"""Read models: what pages show, built from what the database holds, with no writes."""
