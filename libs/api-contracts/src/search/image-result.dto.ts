import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ImageResultDto {
  @ApiProperty({ example: 'https://example.com/picture.jpg' })
  url!: string;

  @ApiPropertyOptional({ description: 'LLM-written description; only when include_image_descriptions is true.' })
  description?: string;
}
