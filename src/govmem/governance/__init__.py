"""Governance: who may read what (policy), forgetting, revocation, interpreters."""

from govmem.governance.authorization import Authorizer, OpenAccess, Scope

__all__ = ["Authorizer", "OpenAccess", "Scope"]
