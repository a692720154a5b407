/data/${coord:formatTime(coord:nominalTime(), 'yyyy/MM/dd')}
