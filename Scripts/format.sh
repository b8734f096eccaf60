#!/usr/bin/env bash
# Formats the sources in place, then lints them as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive --parallel Sources Tests Fuzz Package.swift
swift format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift
