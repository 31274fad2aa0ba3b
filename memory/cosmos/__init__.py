"""The Azure Cosmos DB for NoSQL backend: client, store, recall, lifecycle, and failover to the local store."""
