"""Castell: recruit castellers, train skills, build human towers at festivals."""
