import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import {
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../../server/protocol/error-codes.js';
import { METHOD } from '../../server/protocol/method-names.js';

describe('error codes', () => {
  test('agree with the codes the official 2026 SDK uses on the wire', () => {
    expect({ UNSUPPORTED_PROTOCOL_VERSION, MISSING_REQUIRED_CLIENT_CAPABILITY, METHOD_NOT_FOUND, INVALID_REQUEST, INVALID_PARAMS }).toEqual({
      UNSUPPORTED_PROTOCOL_VERSION: ProtocolErrorCode.UnsupportedProtocolVersion,
      MISSING_REQUIRED_CLIENT_CAPABILITY: ProtocolErrorCode.MissingRequiredClientCapability,
      METHOD_NOT_FOUND: ProtocolErrorCode.MethodNotFound,
      INVALID_REQUEST: ProtocolErrorCode.InvalidRequest,
      INVALID_PARAMS: ProtocolErrorCode.InvalidParams,
    });
  });
});

describe('method names', () => {
  test('name the modern probe and the legacy handshake', () => {
    expect(METHOD).toMatchObject({ discover: 'server/discover', initialize: 'initialize', initialized: 'notifications/initialized' });
  });
});
