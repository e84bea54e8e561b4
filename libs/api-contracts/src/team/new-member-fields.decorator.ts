import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { stackedDecorators as stacked } from '../common/stacked-decorators';

const MEMBER_NAME_MAX_LENGTH = 200;

/** The `email` a member joins a team by, whether invited by the team (POST /team/members) or added by an operator. */
export function NewMemberEmailField(example: string): PropertyDecorator {
  return stacked(ApiProperty({ example }), IsEmail());
}

/** The optional display `name` a member joins a team with. */
export function NewMemberNameField(): PropertyDecorator {
  return stacked(ApiPropertyOptional({ maxLength: MEMBER_NAME_MAX_LENGTH }), IsOptionalNotNull(), IsString(), MaxLength(MEMBER_NAME_MAX_LENGTH));
}
