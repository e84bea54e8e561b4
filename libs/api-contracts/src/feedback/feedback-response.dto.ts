import { ApiProperty } from '@nestjs/swagger';

export class FeedbackResponseDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ description: 'Unique per submission.' })
  feedback_id!: string;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;
}
