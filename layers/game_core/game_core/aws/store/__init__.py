"""The match store on one DynamoDB table (`items` has its layout): one module per concern, each
contributing the items of a use case's transaction, and `DynamoMatchStore`, the service's
`MatchStore` port, which assembles them."""

from game_core.aws.store.facade import DynamoMatchStore
from game_core.aws.store.table import StoreUnavailable

__all__ = ["DynamoMatchStore", "StoreUnavailable"]
