import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import {
  DEACTIVATE_KEYS_REQUEST_EXAMPLE,
  DeactivateKeysRequestDto,
  DeactivateKeysResponseDto,
  GENERATE_KEYS_REQUEST_EXAMPLE,
  GenerateKeysRequestDto,
  GenerateKeysResponseDto,
  KeyInfoResponseDto,
} from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import { ENTERPRISE_ONLY_MESSAGE, KeysService } from './keys.service';

const ENTERPRISE_ONLY = { 403: ENTERPRISE_ONLY_MESSAGE };

@Controller()
export class KeysController {
  constructor(private readonly keysService: KeysService) {}

  @Post('generate-keys')
  @Endpoint({
    tag: 'keys',
    operationId: 'generateKeys',
    summary: 'Create API keys with a type, credit limit, ttl and project (enterprise); each key is shown once',
    response: GenerateKeysResponseDto,
    body: { type: GenerateKeysRequestDto, example: GENERATE_KEYS_REQUEST_EXAMPLE },
    errors: ENTERPRISE_ONLY,
  })
  generate(@Ctx() context: RequestContext, @Body() body: GenerateKeysRequestDto): Promise<GenerateKeysResponseDto> {
    return this.keysService.generate(context, body);
  }

  @Post('deactivate-keys')
  @Endpoint({
    tag: 'keys',
    operationId: 'deactivateKeys',
    summary: 'Deactivate the keys of one generate-keys request, keys by key or id, or the calling key (enterprise)',
    response: DeactivateKeysResponseDto,
    body: { type: DeactivateKeysRequestDto, example: DEACTIVATE_KEYS_REQUEST_EXAMPLE },
    errors: ENTERPRISE_ONLY,
  })
  deactivate(@Ctx() context: RequestContext, @Body() body: DeactivateKeysRequestDto): Promise<DeactivateKeysResponseDto> {
    return this.keysService.deactivate(context, body);
  }

  @Get('key-info')
  @ApiQuery({ name: 'key_id', required: false, description: 'Key id; defaults to the calling key' })
  @Endpoint({ tag: 'keys', operationId: 'keyInfo', summary: "A key's name, type, status, limit, usage this month, creation and expiry (enterprise)", response: KeyInfoResponseDto, errors: { ...ENTERPRISE_ONLY, 404: 'No such key' } })
  info(@Ctx() context: RequestContext, @Query('key_id') keyId?: string): Promise<KeyInfoResponseDto> {
    return this.keysService.info(context, keyId);
  }
}
